// The process under test for scripts/bench/server.ts, forked with an IPC channel: either the real Looptale server
// (`looptale`: startServer on PORT 0, configured by the environment the parent gives it) or the baseline, a bare `ws`
// echo server (`echo`). It reports its URL, then answers the parent's requests: `stats` (event-loop delay, CPU,
// memory, open sockets and database queue figures since the last `reset`), `reset`, `gc`, `close`. It exits when the
// parent goes away. Bench-only instrumentation lives here, never in the product. BENCH_SERVER_ROOT (a checkout of
// another version, such as the pre-change baseline) runs that version's server under the same harness.
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay, performance, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import { WebSocketServer } from 'ws';
import type { loadConfig } from '../../../server/config.js';
import type { Db } from '../../../server/db/db.js';
import type { createLogger } from '../../../server/log.js';
import type { startServer } from '../../../server/main.js';
import { collectGarbage, startProfiling, summarizeProfile, type ProfileSummary } from './profile.js';
import { summarize, round, type Summary } from './stats.js';

export type ChildRequest = { id: number; cmd: 'stats' | 'reset' | 'gc' | 'close' | 'profile-start' | 'profile-stop'; arg?: string };
type ConfigModule = { loadConfig: typeof loadConfig };
type LogModule = { createLogger: typeof createLogger };
type MainModule = { startServer: typeof startServer };
export type ProfileResult = { files: string[]; summaries: ProfileSummary[] };
export type DbProbe = {
  /** Plain queries and transactions started since the last reset. */
  queries: number;
  transactions: number;
  /** Fraction of the wall time with at least one query or transaction queued or running (PGlite runs one at a time). */
  busy_fraction: number;
  /** Most queries and transactions waiting or running at once, and how many are now. */
  max_depth: number;
  depth_now: number;
  /** Time from asking to getting the answer (queue wait + execution), ms. */
  query_ms: Summary;
  tx_ms: Summary;
  /**
   * Per statement (its text's start, numbers and whitespace folded): calls, and on PGlite, whose one worker runs the
   * calls in order, the time each spent executing (from the moment the worker could take it: its start or the end of
   * the call before it, whichever came later; on PostgreSQL's pool the same figure only bounds it) and waiting, ms.
   */
  by_statement: Record<string, { calls: number; exec_ms: Summary; exec_total_ms: number; wait_ms_p99: number | null }>;
  /** Size of the saved game states (player_story_states.state as text), which every turn reads and rewrites whole. */
  state_json_bytes: { rows: number; avg: number; max: number } | null;
};
export type ChildStats = {
  pid: number;
  wall_ms: number;
  /** Event-loop delay beyond the 10 ms sampling timer (monitorEventLoopDelay), ms. */
  event_loop_delay_ms: { p50: number; p99: number; max: number; mean: number; samples: number };
  /** CPU time of this process over the wall time: 1 = one core busy. */
  cpu_cores: number;
  memory: NodeJS.MemoryUsage;
  /** The main isolate's heap spaces (new, old, code, large objects...): committed and used KiB. */
  heap_spaces_kib: Record<string, { committed: number; used: number }>;
  sockets: number;
  db: DbProbe | null;
  /**
   * CPU of this process's threads (from /proc), ms: the main thread, the busiest other thread (on PGlite: the
   * database worker, whose cost per turn bounds the turns/s one process can serve) and all the others together (V8's
   * GC helpers, libuv's pool).
   */
  threads_cpu_ms: { main: number; busiest_other: number; rest: number } | null;
  /** The main thread's GC pauses (PerformanceObserver 'gc'): each one stops every turn in flight. */
  gc_main: GcPauses;
};
export type GcPauses = { count: number; total_ms: number; max_ms: number; over_5ms: number; scavenges: number; major: number };
export type ChildMessage =
  | { type: 'ready'; url: string; pid: number }
  | { type: 'reply'; id: number; ok: true; data: unknown }
  | { type: 'reply'; id: number; ok: false; error: string };

const RESOLUTION_MS = 10;
const mode = process.argv[2];
const send = (m: ChildMessage): void => {
  process.send?.(m);
};

/** Times every call through the database driver (the one PGlite connection serialises them). */
function probeDb(db: Db): { reset(): void; read(wallMs: number): Promise<DbProbe> } {
  let queries = 0;
  let transactions = 0;
  let depth = 0;
  let maxDepth = 0;
  let busyMs = 0;
  let busySince = 0;
  let queryMs: number[] = [];
  let txMs: number[] = [];
  // The end of the last call answered: a FIFO worker starts the next call then (or when it is asked, if later).
  let lastEnd = 0;
  let byStatement = new Map<string, { exec: number[]; wait: number[] }>();
  const kindOf = (sql: string): string => sql.replace(/\s+/g, ' ').trim().slice(0, 70);
  const account = (kind: string, t0: number): void => {
    const now = performance.now();
    const began = Math.max(t0, lastEnd);
    lastEnd = now;
    let k = byStatement.get(kind);
    if (!k) byStatement.set(kind, (k = { exec: [], wait: [] }));
    k.exec.push(now - began);
    k.wait.push(began - t0);
  };
  const enter = (): number => {
    const now = performance.now();
    if (depth++ === 0) busySince = now;
    if (depth > maxDepth) maxDepth = depth;
    return now;
  };
  const leave = (t0: number, into: number[]): void => {
    const now = performance.now();
    into.push(now - t0);
    if (--depth === 0) busyMs += now - busySince;
  };
  const query = db.query.bind(db);
  const tx = db.tx.bind(db);
  const wrapped = db as { -readonly [K in keyof Db]: Db[K] };
  // BENCH_SLOW_QUERY_MS: every call slower than this is printed (its time, the calls queued ahead of it, the SQL's start).
  const slowMs = Number(process.env.BENCH_SLOW_QUERY_MS ?? 0);
  let windowStart = -1;
  wrapped.query = async (sql: string, params?: readonly unknown[], opts?: Parameters<Db['query']>[2]) => {
    queries++;
    const ahead = depth;
    const t0 = enter();
    try {
      return await query(sql, params, opts);
    } finally {
      const took = performance.now() - t0;
      if (slowMs > 0 && took > slowMs) {
        const at = windowStart < 0 ? 'before the windows' : `${((t0 - windowStart) / 1000).toFixed(2)} s into the window`;
        const exec = performance.now() - Math.max(t0, lastEnd);
        process.stderr.write(`slow query: ${took.toFixed(1)} ms (${exec.toFixed(1)} executing), ${ahead} ahead, ${at}: ${sql.replace(/\s+/g, ' ').slice(0, 160)}\n`);
      }
      account(kindOf(sql), t0);
      leave(t0, queryMs);
    }
  };
  wrapped.tx = (async (fn: Parameters<Db['tx']>[0]) => {
    transactions++;
    const t0 = enter();
    try {
      return await tx(fn);
    } finally {
      account('(transaction)', t0);
      leave(t0, txMs);
    }
  }) as Db['tx'];
  return {
    reset() {
      queries = transactions = 0;
      maxDepth = depth;
      busyMs = 0;
      busySince = performance.now();
      windowStart = busySince;
      queryMs = [];
      txMs = [];
      byStatement = new Map();
    },
    async read(wallMs) {
      const open = depth > 0 ? performance.now() - busySince : 0;
      const figures = {
        queries, transactions, busy_fraction: round((busyMs + open) / Math.max(1, wallMs), 3), max_depth: maxDepth, depth_now: depth,
        query_ms: summarize(queryMs), tx_ms: summarize(txMs),
        by_statement: Object.fromEntries([...byStatement].sort((a, b) => b[1].exec.length - a[1].exec.length).map(([k, v]) => {
          const exec = summarize(v.exec);
          return [k, { calls: v.exec.length, exec_ms: exec, exec_total_ms: round((exec.mean ?? 0) * v.exec.length, 1), wait_ms_p99: summarize(v.wait).p99 }];
        })),
      };
      // Through the unwrapped driver, so the probe does not count its own query.
      // The table's schema moved with the Supabase layout (looptale_private); older versions have it in public.
      const sql = (table: string): string => `SELECT count(*) AS n, avg(length(state::text)) AS avg, max(length(state::text)) AS max FROM ${table}`;
      type R = { n: string | number; avg: string | number | null; max: string | number | null };
      const r = await query<R>(sql('looptale_private.player_story_states')).catch(() => query<R>(sql('player_story_states'))).catch(() => null);
      const row = r?.rows[0];
      const state_json_bytes = row ? { rows: Number(row.n), avg: Math.round(Number(row.avg ?? 0)), max: Number(row.max ?? 0) } : null;
      return { ...figures, state_json_bytes };
    },
  };
}

async function start(): Promise<{ url: string; sockets: () => number; db: ReturnType<typeof probeDb> | null; close: () => Promise<void> }> {
  if (mode === 'echo') {
    const server = http.createServer((_req, res) => res.writeHead(404).end());
    const wss = new WebSocketServer({ server, path: '/ws', perMessageDeflate: false });
    wss.on('connection', (ws) => {
      ws.on('error', () => undefined);
      ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary }));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    const port = (server.address() as AddressInfo).port;
    return {
      url: `http://127.0.0.1:${port}`,
      sockets: () => wss.clients.size,
      db: null,
      close: async () => {
        for (const ws of wss.clients) ws.terminate();
        await new Promise<void>((r) => wss.close(() => r()));
        await new Promise<void>((r) => server.close(() => r()));
      },
    };
  }
  if (mode === 'looptale') {
    // Imported here so the echo baseline does not load the server's modules.
    const root = process.env.BENCH_SERVER_ROOT ?? join(import.meta.dirname, '../../..');
    const from = (path: string): string => pathToFileURL(join(root, path)).href;
    const { loadConfig } = (await import(from('server/config.ts'))) as ConfigModule;
    const { createLogger } = (await import(from('server/log.ts'))) as LogModule;
    const { startServer } = (await import(from('server/main.ts'))) as MainModule;
    const config = loadConfig(process.env);
    const server = await startServer(config, createLogger(config.LOG_LEVEL, process.stderr));
    const db = probeDb(server.services.db);
    return { url: server.url, sockets: () => server.services.realtime.clients(), db, close: () => server.close() };
  }
  throw new Error(`server-child: unknown mode '${mode ?? ''}' (looptale | echo)`);
}

/** CPU ms of each thread of this process (Linux /proc; null elsewhere). */
function threadCpu(): Map<number, number> | null {
  try {
    const out = new Map<number, number>();
    for (const tid of readdirSync('/proc/self/task')) {
      try {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        out.set(Number(tid), (Number(f[11]) + Number(f[12])) * 10); // utime + stime, in 10 ms clock ticks
      } catch {
        // the thread ended
      }
    }
    return out;
  } catch {
    return null;
  }
}

const running = await start();
const eld = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
eld.enable();
let since = performance.now();
let cpuSince = process.cpuUsage();
let threadsSince = threadCpu();
let gcPauses: { ms: number; kind: number }[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcPauses.push({ ms: e.duration, kind: (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? 0 });
}).observe({ entryTypes: ['gc'] });

const reset = (): void => {
  eld.reset();
  since = performance.now();
  cpuSince = process.cpuUsage();
  threadsSince = threadCpu();
  gcPauses = [];
  running.db?.reset();
};
const threadsFigures = (): ChildStats['threads_cpu_ms'] => {
  const now = threadCpu();
  if (!now || !threadsSince) return null;
  let main = 0;
  const others: number[] = [];
  for (const [tid, ms] of now) {
    const d = ms - (threadsSince.get(tid) ?? 0);
    if (tid === process.pid) main = d;
    else others.push(d);
  }
  others.sort((a, b) => b - a);
  return { main, busiest_other: others[0] ?? 0, rest: others.slice(1).reduce((a, b) => a + b, 0) };
};
const gcFigures = (): GcPauses => {
  // kind 1 = scavenge (young generation); 2, 4, 8 = the old generation's marking and compaction steps.
  const ms = gcPauses.map((g) => g.ms);
  return {
    count: ms.length, total_ms: round(ms.reduce((a, b) => a + b, 0), 1), max_ms: round(Math.max(0, ...ms), 2),
    over_5ms: ms.filter((x) => x > 5).length, scavenges: gcPauses.filter((g) => g.kind === 1).length, major: gcPauses.filter((g) => g.kind !== 1).length,
  };
};
const stats = async (): Promise<ChildStats> => {
  const wall = performance.now() - since;
  const cpu = process.cpuUsage(cpuSince);
  const ms = (ns: number): number => round(Math.max(0, ns / 1e6 - RESOLUTION_MS), 2);
  return {
    pid: process.pid,
    wall_ms: Math.round(wall),
    event_loop_delay_ms: {
      p50: ms(eld.percentile(50)), p99: ms(eld.percentile(99)), max: ms(eld.max), mean: ms(Number.isNaN(eld.mean) ? 0 : eld.mean),
      samples: eld.count,
    },
    cpu_cores: round((cpu.user + cpu.system) / 1000 / Math.max(1, wall), 3),
    memory: process.memoryUsage(),
    heap_spaces_kib: Object.fromEntries(v8.getHeapSpaceStatistics().map((sp) => [sp.space_name, { committed: Math.round(sp.space_size / 1024), used: Math.round(sp.space_used_size / 1024) }])),
    sockets: running.sockets(),
    db: running.db ? await running.db.read(wall) : null,
    threads_cpu_ms: threadsFigures(),
    gc_main: gcFigures(),
  };
};

let closing = false;
const close = async (code: number): Promise<void> => {
  if (closing) return;
  closing = true;
  const force = setTimeout(() => process.exit(code), 10_000);
  force.unref();
  try {
    await running.close();
  } finally {
    process.exit(code);
  }
};

let profiling: Awaited<ReturnType<typeof startProfiling>> | null = null;

process.on('message', (raw: ChildRequest) => {
  const reply = (data: unknown): void => send({ type: 'reply', id: raw.id, ok: true, data });
  const fail = (e: unknown): void => send({ type: 'reply', id: raw.id, ok: false, error: e instanceof Error ? e.message : String(e) });
  try {
    switch (raw.cmd) {
      case 'stats': return void stats().then(reply, fail);
      case 'reset': reset(); return reply(null);
      // 'all': the workers' isolates too (PGlite's keeps the pages of a burst of queries until its own heap fills up:
      // an idle worker never collects them).
      case 'gc': return void collectGarbage(raw.arg === 'all' ? 'all' : 'main').then((r) => reply(r.main), fail);
      case 'close': reply(null); void close(0); return;
      case 'profile-start':
        return void startProfiling().then((p) => {
          profiling = p;
          reply(null);
        }, fail);
      case 'profile-stop': {
        const p = profiling;
        profiling = null;
        if (!p) return fail(new Error('not profiling'));
        const [dir, tag] = (raw.arg ?? '/tmp|profile').split('|');
        return void p.stop(dir ?? '/tmp', tag ?? 'profile').then(({ files, profiles }) => {
          reply({ files, summaries: profiles.map((x) => summarizeProfile(x.profile, x.thread)) } satisfies ProfileResult);
        }, fail);
      }
    }
  } catch (e) {
    fail(e);
  }
});
// The parent went away (crash, kill): do not linger.
process.on('disconnect', () => void close(0));
process.on('SIGTERM', () => void close(0));
reset();
send({ type: 'ready', url: running.url, pid: process.pid });
