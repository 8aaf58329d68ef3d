// Server under load, side by side with a bare `ws` echo server (the baseline), both in child processes so the load
// generator (this process) does not share their event loop:
//   1. text-turn round trip (USER_INPUT with a transcription -> the turn's final GAME_OUTPUT) p50/p95/p99 at 1, 100
//      and 500 sockets, one signed-up user and run of lantern-keeper per socket, one turn every 2 s each;
//   2. resident memory per idle authenticated socket (VmRSS of the child before and after opening 1,000);
//   3. the server's event-loop delay under each load (monitorEventLoopDelay inside the child).
// Goals are reported, never asserted. `npm run bench -- server`; BENCH_SERVER_WINDOW_S=5 for a quick run.
// Knobs (environment): BENCH_SERVER_WINDOW_S (20), BENCH_SERVER_ECHO_WINDOW_S (10: the echo is steady and cheap),
// BENCH_SERVER_LEVELS (1,100,500), BENCH_SERVER_IDLE_SOCKETS (1000), BENCH_SERVER_PERIOD_MS (2000),
// BENCH_SERVER_CPU_PROF (a directory for a CPU profile of the server child).
// Sign-up costs one scrypt hash each (about 160 ms of CPU here), so 500 players take ~40 s of the ~2.5 minutes.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startChild, type BenchChild } from './lib/child.js';
import { closeAgents } from './lib/http.js';
import { closeSocket, echoWindow, looptaleWindow, openIdle, pool, type WindowOptions, type WindowResult } from './lib/load.js';
import { planActions, signUp, USERS_PER_ADDRESS, type Player } from './lib/players.js';
import { ratio, round, summarize } from './lib/stats.js';
import type { ChildStats } from './lib/server-child.js';

const ROOT = join(import.meta.dirname, '../..');
const STORY_DIR = join(ROOT, 'fixtures/stories');
const STORY = 'lantern-keeper';
const PLAN = 'win.en.testplan';

/**
 * Server settings the bench passes on top of the defaults. None of the server's limits had to be raised: sign-ups
 * come from several loopback addresses, 25 per address, under the fixed per-address sign-up limit (30 per 10 minutes,
 * server/auth/limits.ts, not configurable); HTTP_RATE_LIMIT (600 per minute per address) is not reached either.
 */
const LIMITS_RAISED: Record<string, string> = {};

function envNumber(name: string, fallback: number): number {
  const v = process.env[name];
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got '${v}'`);
  return n;
}

const log = (msg: string): void => {
  process.stderr.write(`bench: server: ${msg}\n`);
};
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function serverFigures(s: ChildStats, rssKiB: number, turnsPerS: number): Record<string, unknown> {
  return {
    cpu_cores: s.cpu_cores,
    /** Server CPU per turn (or per echo), ms: what one core can sustain is 1000 / this. */
    cpu_ms_per_turn: turnsPerS > 0 ? round((s.cpu_cores * 1000) / turnsPerS, 2) : null,
    event_loop_delay_ms: s.event_loop_delay_ms,
    rss_kib: rssKiB,
    heap_used_mib: round(s.memory.heapUsed / 2 ** 20, 1),
    ...(s.db ? { db: s.db } : {}),
  };
}

/** Waits (at most 20 s) until the server has no database work left: turns that timed out on the client may still run. */
async function quiet(child: BenchChild): Promise<void> {
  const deadline = performance.now() + 20_000;
  while (performance.now() < deadline) {
    const s = await child.stats();
    if (!s.db || s.db.depth_now === 0) return;
    await sleep(200);
  }
}

/** Server RSS before and after opening `n` idle sockets, per socket (after a full GC in the child each time). */
async function idleMemory(child: BenchChild, n: number, tokens: readonly string[] | null): Promise<Record<string, unknown>> {
  // Warm up the connection path first, so code and pools allocated once are not billed to the sockets.
  const warm = await openIdle(child.url, 20, tokens, 10_000);
  await Promise.all(warm.map((ws) => closeSocket(ws)));
  const settle = async (): Promise<{ rss: number; stats: ChildStats }> => {
    await sleep(300);
    await child.gc();
    await sleep(500);
    return { rss: child.rssKiB(), stats: await child.stats() };
  };
  const before = await settle();
  const t0 = performance.now();
  const sockets = await openIdle(child.url, n, tokens, 10_000);
  const openS = (performance.now() - t0) / 1000;
  try {
    const deadline = performance.now() + 10_000;
    while ((await child.stats()).sockets < n && performance.now() < deadline) await sleep(100);
    const after = await settle();
    const heap = (s: ChildStats): number => s.memory.heapUsed + s.memory.external;
    return {
      sockets: n,
      sockets_seen_by_server: after.stats.sockets,
      open_s: round(openS, 2),
      rss_before_kib: before.rss,
      rss_after_kib: after.rss,
      rss_per_socket_kib: round((after.rss - before.rss) / n, 2),
      // RSS only grows when new pages are touched: a process holding freed memory (the Looptale server keeps hundreds
      // of MiB from PGlite's start-up) can absorb the sockets without growing. The JS heap + external delta is the
      // lower bound that slack cannot hide.
      heap_and_external_per_socket_kib: round((heap(after.stats) - heap(before.stats)) / 1024 / n, 2),
    };
  } finally {
    await Promise.all(sockets.map((ws) => closeSocket(ws)));
  }
}

function ratios(server: WindowResult, echo: WindowResult): Record<string, number | null> {
  return {
    p50: ratio(server.latency_ms.p50, echo.latency_ms.p50),
    p95: ratio(server.latency_ms.p95, echo.latency_ms.p95),
    p99: ratio(server.latency_ms.p99, echo.latency_ms.p99),
  };
}

export async function run(): Promise<Record<string, unknown>> {
  const windowMs = envNumber('BENCH_SERVER_WINDOW_S', 20) * 1000;
  const echoWindowMs = envNumber('BENCH_SERVER_ECHO_WINDOW_S', Math.min(10, windowMs / 1000)) * 1000;
  const periodMs = envNumber('BENCH_SERVER_PERIOD_MS', 2000);
  const idleSockets = Math.round(envNumber('BENCH_SERVER_IDLE_SOCKETS', 1000));
  const levels = (process.env.BENCH_SERVER_LEVELS ?? '1,100,500').split(',').map((s) => Math.round(Number(s.trim())));
  if (levels.some((l) => !Number.isInteger(l) || l < 1)) throw new Error(`BENCH_SERVER_LEVELS must list positive integers, got '${process.env.BENCH_SERVER_LEVELS ?? ''}'`);
  const top = Math.max(...levels);
  const storyId = (JSON.parse(readFileSync(join(STORY_DIR, STORY, 'story.json'), 'utf8')) as { id: string }).id;
  const actions = planActions(join(STORY_DIR, STORY, PLAN));
  const opts = (sockets: number, ms: number): WindowOptions => ({ sockets, windowMs: ms, periodMs, turnTimeoutMs: 15_000, connectTimeoutMs: 10_000 });

  const began = performance.now();
  const loadBefore = os.loadavg();
  const dataDir = mkdtempSync(join(tmpdir(), 'looptale-bench-'));
  const serverEnv: Record<string, string> = {
    PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'production',
    SEED_STORIES: 'true', STORIES_DIR: STORY_DIR, ...LIMITS_RAISED,
  };
  const children: BenchChild[] = [];
  try {
    log('starting the server and the echo baseline (child processes)');
    // BENCH_SERVER_CPU_PROF=<dir>: the server child writes a V8 CPU profile there when it exits (for digging).
    const prof = process.env.BENCH_SERVER_CPU_PROF;
    const started = await Promise.allSettled([
      startChild('looptale', 'looptale', serverEnv, prof ? { execArgv: ['--cpu-prof', `--cpu-prof-dir=${prof}`] } : {}),
      startChild('echo', 'echo', {}),
    ]);
    for (const s of started) if (s.status === 'fulfilled') children.push(s.value);
    for (const s of started) if (s.status === 'rejected') throw s.reason;
    const [looptale, echo] = children as [BenchChild, BenchChild];
    const rssAtStart = { looptale_kib: looptale.rssKiB(), echo_kib: echo.rssKiB() };

    log(`signing up ${top} players (one run of ${STORY} each)`);
    const tag = Date.now().toString(36);
    const t0 = performance.now();
    const signed = await pool(Array.from({ length: top }, (_, i) => i), 8, (i) => signUp(looptale.url, i, tag, storyId, 30_000));
    const setup = {
      players: top,
      source_addresses: Math.ceil(top / USERS_PER_ADDRESS),
      seconds: round((performance.now() - t0) / 1000, 1),
      signup_ms: summarize(signed.map((s) => s.signupMs)),
      first_run_create_ms: summarize(signed.map((s) => s.createMs)),
    };
    const players: Player[] = signed.map((s) => s.player);
    const rssAfterSignup = looptale.rssKiB();

    log(`idle memory: ${idleSockets} sockets`);
    const idle = {
      looptale: await idleMemory(looptale, idleSockets, players.map((p) => p.token)),
      echo: await idleMemory(echo, idleSockets, null),
    };

    // Warm-up (not recorded): JIT, pools and caches on both sides, so the 1-socket level is not a cold start.
    log('warming up');
    const warm = { ...opts(Math.min(top, 50), 3000), periodMs: 500 };
    await looptaleWindow(looptale.url, players, actions, warm, { started: () => Promise.resolve() });
    await quiet(looptale);
    await echoWindow(echo.url, actions, players[0]?.runId ?? storyId, warm, { started: () => Promise.resolve() });

    const latency: Record<string, unknown> = {};
    const byLevel = new Map<number, { server: WindowResult; echo: WindowResult; stats: ChildStats }>();
    for (const n of levels) {
      log(`${n} sockets: Looptale for ${windowMs / 1000} s`);
      const server = await looptaleWindow(looptale.url, players, actions, opts(n, windowMs), { started: () => looptale.reset() });
      const serverStats = await looptale.stats();
      const serverRss = looptale.rssKiB();
      await quiet(looptale);
      log(`${n} sockets: echo for ${echoWindowMs / 1000} s`);
      const base = await echoWindow(echo.url, actions, players[0]?.runId ?? storyId, opts(n, echoWindowMs), { started: () => echo.reset() });
      const echoStats = await echo.stats();
      byLevel.set(n, { server, echo: base, stats: serverStats });
      latency[String(n)] = {
        looptale: { ...server, server: serverFigures(serverStats, serverRss, server.turns_per_s) },
        echo: { ...base, server: serverFigures(echoStats, echo.rssKiB(), base.turns_per_s) },
        ratio_looptale_over_echo: ratios(server, base),
      };
    }

    const at = byLevel.get(top);
    const serverP99 = at?.server.latency_ms.p99 ?? null;
    const echoP99 = at?.echo.latency_ms.p99 ?? null;
    const limitMs = echoP99 === null ? null : round(1.5 * echoP99 + 10, 2);
    const perSocket = idle.looptale.rss_per_socket_kib as number;
    const echoPerSocket = idle.echo.rss_per_socket_kib as number;
    return {
      name: 'server',
      setup: {
        ...setup,
        rss_at_start_kib: rssAtStart,
        looptale_rss_after_signup_kib: rssAfterSignup,
        story: STORY, plan: PLAN, period_ms: periodMs, window_s: windowMs / 1000, echo_window_s: echoWindowMs / 1000,
        server_env: { ...serverEnv, DATA_DIR: '<temp dir>' }, limits_raised: LIMITS_RAISED,
      },
      latency,
      idle_memory: idle,
      goals: {
        latency: {
          goal: `p99 at ${top} sockets within 1.5 x echo p99 + 10 ms`,
          looptale_p99_ms: serverP99, echo_p99_ms: echoP99, limit_ms: limitMs,
          met: serverP99 !== null && limitMs !== null && serverP99 <= limitMs && Object.keys(at?.server.errors ?? {}).length === 0,
        },
        idle_memory: {
          goal: 'at most 10 KiB of server RSS per idle authenticated socket',
          rss_per_socket_kib: perSocket, met: perSocket <= 10,
          echo_rss_per_socket_kib: echoPerSocket,
          heap_and_external_per_socket_kib: idle.looptale.heap_and_external_per_socket_kib,
          ...(perSocket < echoPerSocket
            ? { note: 'below the bare ws baseline: freed memory the server already held absorbed the sockets, so RSS understates their cost' }
            : {}),
        },
        event_loop_delay: { goal: `reported: server event-loop delay p99 at ${top} sockets`, p99_ms: at?.stats.event_loop_delay_ms.p99 ?? null },
      },
      server_log_lines: looptale.logLines(),
      // Other work on the machine shares the cores with both servers and the load generator: read figures with it.
      machine_load_avg_1m: { before: round(loadBefore[0] ?? 0, 2), after: round(os.loadavg()[0] ?? 0, 2) },
      total_s: round((performance.now() - began) / 1000, 1),
    };
  } finally {
    await Promise.all(children.map((c) => c.stop().catch(() => undefined)));
    closeAgents();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
