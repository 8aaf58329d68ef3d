// The parent side of lib/server-child.ts: forks it (through tsx, with --expose-gc), waits for its URL, sends it
// requests with timeouts, reads its resident memory from /proc, and makes sure it dies with the bench.
import { fork, type ChildProcess } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildMessage, ChildRequest, ChildStats, ProfileResult } from './server-child.js';

export type BenchChild = {
  name: string;
  url: string;
  pid: number;
  /** Warning and error lines the child wrote (its first lines are echoed to our stderr). */
  logLines: () => number;
  stats: () => Promise<ChildStats>;
  reset: () => Promise<void>;
  /**
   * Full garbage collection (twice) in the child's main isolate, or in every isolate ('all': the worker threads' too,
   * as V8's low-memory collection, which also gives their freed pages back); false when gc is not exposed.
   */
  gc: (scope?: 'main' | 'all') => Promise<boolean>;
  /** CPU profiles of the child's main and worker threads, between start and stop (written to `dir`). */
  profileStart: () => Promise<void>;
  profileStop: (dir: string, tag: string) => Promise<ProfileResult>;
  /** VmRSS of the child from /proc/<pid>/status, in KiB. */
  rssKiB: () => number;
  /** RssAnon of the child: its resident anonymous memory (heaps, buffers), without the file-backed pages of its binary
   * and libraries, which the kernel may drop and read back at any time. */
  rssAnonKiB: () => number;
  stop: () => Promise<void>;
};

const live = new Set<ChildProcess>();
let hooked = false;
/** Children are killed however the bench ends. */
function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.once('exit', () => {
    for (const c of live) c.kill('SIGKILL');
  });
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => {
      for (const c of live) c.kill('SIGKILL');
      process.exit(130);
    });
  }
}

export function readRssKiB(pid: number, field: 'VmRSS' | 'RssAnon' = 'VmRSS'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(status);
  if (!m) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(m[1]);
}

export async function startChild(
  name: string, mode: 'looptale' | 'echo', env: Record<string, string>,
  opts: { startTimeoutMs?: number; echoLines?: number; execArgv?: string[] } = {},
): Promise<BenchChild> {
  hookExit();
  const script = join(import.meta.dirname, 'server-child.ts');
  const child = fork(script, [mode], {
    execArgv: ['--import', 'tsx', '--expose-gc', ...(opts.execArgv ?? [])],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  live.add(child);
  let lines = 0;
  const echoLines = opts.echoLines ?? 20;
  // BENCH_CHILD_LOG=<file>: every line of every child's output appended there (e.g. with --trace-gc in the flags).
  const logFile = process.env.BENCH_CHILD_LOG;
  const onOutput = (chunk: Buffer): void => {
    const got = chunk.toString('utf8').split('\n').filter((l) => l.trim());
    if (logFile) appendFileSync(logFile, got.map((l) => `[${name}] ${l}\n`).join(''));
    for (const line of got) {
      if (lines++ < echoLines) process.stderr.write(`[${name}] ${line.slice(0, 500)}\n`);
    }
  };
  child.stdout?.on('data', onOutput);
  child.stderr?.on('data', onOutput);

  let nextId = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();
  let exited: string | null = null;
  const failAll = (why: string): void => {
    for (const p of pending.values()) {
      clearTimeout(p.timer);
      p.reject(new Error(why));
    }
    pending.clear();
  };
  child.on('exit', (code, signal) => {
    live.delete(child);
    exited = `${name} exited (code ${code ?? 'none'}, signal ${signal ?? 'none'})`;
    failAll(exited);
  });

  const ready = await new Promise<{ url: string; pid: number }>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not start within ${opts.startTimeoutMs ?? 60_000} ms`));
    }, opts.startTimeoutMs ?? 60_000);
    child.on('message', (m: ChildMessage) => {
      if (m.type === 'ready') {
        clearTimeout(timer);
        resolve({ url: m.url, pid: m.pid });
        return;
      }
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      clearTimeout(p.timer);
      if (m.ok) p.resolve(m.data);
      else p.reject(new Error(`${name}: ${m.error}`));
    });
    child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error(exited ?? `${name} exited before it was ready`));
    });
  });
  if (ready.pid !== child.pid) throw new Error(`${name}: the child reports pid ${ready.pid}, fork gave ${child.pid ?? 'none'}`);

  const request = <T>(cmd: ChildRequest['cmd'], timeoutMs = 10_000, arg?: string): Promise<T> => {
    if (exited) return Promise.reject(new Error(exited));
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`${name}: no answer to '${cmd}' within ${timeoutMs} ms`));
      }, timeoutMs);
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      child.send({ id, cmd, ...(arg !== undefined ? { arg } : {}) } satisfies ChildRequest);
    });
  };

  return {
    name, url: ready.url, pid: ready.pid,
    logLines: () => lines,
    stats: () => request<ChildStats>('stats'),
    reset: () => request<void>('reset'),
    gc: (scope = 'main') => request<boolean>('gc', 30_000, scope),
    profileStart: () => request<void>('profile-start', 30_000),
    profileStop: (dir, tag) => request<ProfileResult>('profile-stop', 60_000, `${dir}|${tag}`),
    rssKiB: () => readRssKiB(ready.pid),
    rssAnonKiB: () => readRssKiB(ready.pid, 'RssAnon'),
    async stop() {
      if (exited) return;
      const gone = new Promise<void>((r) => child.once('exit', () => r()));
      await request('close', 5_000).catch(() => undefined);
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await gone;
      clearTimeout(timer);
    },
  };
}
