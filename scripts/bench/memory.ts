// Start-up peak and idle memory of `looptale serve` (#14): the whole process tree's RSS (the server, its worker
// threads, and its children such as pocketsphinx or esbuild), sampled every 100 ms from spawn until /healthz answers
// and then while idle. Default configuration, PGlite in a fresh temporary DATA_DIR (first start: the database is
// created and the stories seeded), then a second start on that same DATA_DIR (restart: what a server usually does).
// Medians of BENCH_MEMORY_RUNS runs (3); BENCH_MEMORY_IDLE_S seconds idle (20). BENCH_SERVER_ROOT runs another checkout
// (a baseline) the same way.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = process.env.BENCH_SERVER_ROOT ?? join(import.meta.dirname, '../..');

function rssKib(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0; // ended meanwhile
  }
}

function children(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((t) => readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
  } catch {
    return [];
  }
}

function treeKib(pid: number): number {
  return rssKib(pid) + children(pid).reduce((n, c) => n + treeKib(c), 0);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const addr = s.address();
      s.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

type Sample = { ready_s: number; peak_mib: number; idle_mib: number; idle_main_mib: number };

async function once(idleS: number, dataDir: string): Promise<Sample> {
  const port = await freePort();
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  const child = spawn(process.execPath, ['bin/looptale.js', 'serve'], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
  const stderr: string[] = [];
  child.stderr.on('data', (d: Buffer) => stderr.push(d.toString()));
  const exited = new Promise((r) => child.once('exit', r));
  const pid = child.pid ?? 0;
  const t0 = performance.now();
  let peak = 0;
  let readyAt = 0;
  try {
    for (;;) {
      peak = Math.max(peak, treeKib(pid));
      const now = performance.now();
      if (!readyAt) {
        const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false);
        if (ok) readyAt = performance.now();
        else if (now - t0 > 120_000 || child.exitCode !== null) throw new Error(`the server did not start: ${stderr.join('').slice(-2000)}`);
      } else if (now - readyAt >= idleS * 1000) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const mib = (kib: number): number => Math.round(kib / 1024);
    return { ready_s: Math.round((readyAt - t0) / 100) / 10, peak_mib: mib(peak), idle_mib: mib(treeKib(pid)), idle_main_mib: mib(rssKib(pid)) };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

export async function run(): Promise<Record<string, unknown>> {
  const runs = Number(process.env.BENCH_MEMORY_RUNS ?? 3);
  const idleS = Number(process.env.BENCH_MEMORY_IDLE_S ?? 20);
  const samples: Sample[] = [];
  const restarts: Sample[] = [];
  for (let i = 0; i < runs; i++) {
    const dataDir = mkdtempSync(join(tmpdir(), 'looptale-bench-mem-'));
    try {
      samples.push(await once(idleS, dataDir));
      restarts.push(await once(idleS, dataDir));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return {
    root: ROOT,
    idle_s: idleS,
    startup_peak_rss_mib: median(samples.map((s) => s.peak_mib)),
    idle_rss_mib: median(samples.map((s) => s.idle_mib)),
    restart_peak_rss_mib: median(restarts.map((s) => s.peak_mib)),
    restart_idle_rss_mib: median(restarts.map((s) => s.idle_mib)),
    samples,
    restarts,
  };
}
