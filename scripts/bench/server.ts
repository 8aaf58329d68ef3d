// Server under load, side by side with a bare `ws` echo server (the baseline), both in child processes so the load
// generator (this process) does not share their event loop:
//   1. text-turn round trip (USER_INPUT with a transcription -> the turn's final GAME_OUTPUT) p50/p95/p99 at each
//      level (default 100, 500, 1,000 and 2,000 sockets), one signed-up user and run of lantern-keeper per socket, one
//      turn every 2 s each; each level's echo window runs right after it; the curve (p50, p99, turns/s offered and
//      served, server CPU, RSS) per level;
//   2. on each database: the default embedded PGlite and a real PostgreSQL 15 (a throwaway cluster);
//   3. resident memory per idle authenticated socket, on a FRESH server process (started again on the same data after
//      the load), against a fresh echo process, each after a full GC of every isolate (workers too; the figure after
//      the main isolate's only beside it), the median of BENCH_SERVER_IDLE_ROUNDS rounds; 5,000 sockets by default, up
//      to 5 per player of the top level (WS_MAX_SOCKETS_PER_USER): with 1,000 (before session 11) the sockets' few MB
//      were within the process's own drift (rounds read 8.7, 5.1 and -12.6 KiB a socket on PGlite, 4.5, -1.3 and 4.6 on
//      the echo), with 5,000 3.96, 4.05, 5.40 against the echo's 4.2, 3.9, 3.05 (#12, 06:10-06:19 UTC);
//   4. a CPU profile of the server's threads (main and workers) during a window of one level's own, after its measured
//      window (the profiler's cost stays out of the latency), summarised by area.
// Server CPU on PostgreSQL also gives the cluster's own CPU (postmaster and backends, from /proc): db_server_cpu_cores.
// Per level also: CPU per turn by thread (main, the busiest other thread = the PGlite worker on PGlite, the rest = V8's
// GC helpers and libuv) and the main thread's GC pauses, which survive a loaded machine better than latency tails.
// Voice: local speech synthesis and recognition are off (VOICE=off: text turns, as when an HTTP provider voices the
// replies); the JSON states it. Goals are reported, never asserted. `npm run bench -- server`.
// Knobs (environment): BENCH_SERVER_WINDOW_S (20), BENCH_SERVER_ECHO_WINDOW_S (10), BENCH_SERVER_LEVELS
// (100,500,1000,2000), BENCH_SERVER_PERIOD_MS (2000), BENCH_SERVER_DB (pglite,postgres), BENCH_SERVER_IDLE_SOCKETS
// (5000), BENCH_SERVER_IDLE_ROUNDS (3), BENCH_SERVER_IDLE_WAIT_S (45, after each fresh start), BENCH_SERVER_PROFILE_LEVEL
// (500; 0 for none), BENCH_SERVER_PROFILE_DIR (a temp dir), BENCH_SERVER_VOICE (off), BENCH_SERVER_ROOT (another
// checkout's server under the same harness, e.g. the pre-change baseline), BENCH_SERVER_NODE_FLAGS (extra node flags
// for the measured server, e.g. --trace-gc), BENCH_CHILD_LOG (a file every child's output is appended to),
// BENCH_SLOW_QUERY_MS (the measured server prints every database call slower than this, with the calls queued ahead of
// it), BENCH_CLOCK (golden: socket i sends at frac(i x 0.618) of the period, so any group of sockets is spread over it;
// even: at i/N, the clock before, under which the first 100 players' runs all ended at once at the 500 level).
// Sign-up costs one scrypt hash each (about 160 ms of CPU here): 2,000 players take about 2.5 minutes per database.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../pg-throwaway.js';
import { startChild, type BenchChild } from './lib/child.js';
import { ConfigSchema } from '../../server/config.js';
import { closeAgents } from './lib/http.js';
import { postmasterPid, treeCpuMs } from './lib/proc-cpu.js';
import { CLOCK, closeSocket, echoWindow, looptaleWindow, openIdle, pool, type WindowOptions, type WindowResult } from './lib/load.js';
import { planActions, signUp, USERS_PER_ADDRESS, type Player } from './lib/players.js';
import { growth, growthBySize, readSmaps, topGrowers, type Mapping } from './lib/smaps.js';
import { ratio, round, summarize } from './lib/stats.js';
import type { ChildStats, ProfileResult } from './lib/server-child.js';

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
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number >= 0, got '${v}'`);
  return n;
}

const log = (msg: string): void => {
  process.stderr.write(`bench: server: ${msg}\n`);
};
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A PostgreSQL cluster's CPU (postmaster and backends) over a window, in cores; null on PGlite. */
type DbServerCpu = { start(): void; cores(): number | null };
function dbServerCpu(pid: number | null): DbServerCpu {
  let t0 = 0;
  let cpu0: number | null = null;
  return {
    start() {
      t0 = performance.now();
      cpu0 = pid === null ? null : treeCpuMs(pid);
    },
    cores() {
      const cpu1 = pid === null ? null : treeCpuMs(pid);
      return cpu0 === null || cpu1 === null ? null : round((cpu1 - cpu0) / Math.max(1, performance.now() - t0), 3);
    },
  };
}

function serverFigures(s: ChildStats, rssKiB: number, turnsPerS: number, dbCores: number | null = null): Record<string, unknown> {
  return {
    cpu_cores: s.cpu_cores,
    /** Server CPU per turn (or per echo), ms: what one core can sustain is 1000 / this. */
    cpu_ms_per_turn: turnsPerS > 0 ? round((s.cpu_cores * 1000) / turnsPerS, 2) : null,
    // On PostgreSQL the database's own processes work for the turns too (on PGlite that work is in cpu_cores).
    ...(dbCores !== null ? {
      db_server_cpu_cores: dbCores,
      cpu_ms_per_turn_with_db_server: turnsPerS > 0 ? round(((s.cpu_cores + dbCores) * 1000) / turnsPerS, 2) : null,
    } : {}),
    // Per thread (ms of CPU per turn): on PGlite, busiest_other is the database worker: 1000 / it is the most turns/s
    // it can commit with a core to itself.
    ...(s.threads_cpu_ms && turnsPerS > 0 ? {
      cpu_ms_per_turn_by_thread: {
        main: round(s.threads_cpu_ms.main / (turnsPerS * s.wall_ms / 1000), 3),
        busiest_other: round(s.threads_cpu_ms.busiest_other / (turnsPerS * s.wall_ms / 1000), 3),
        rest: round(s.threads_cpu_ms.rest / (turnsPerS * s.wall_ms / 1000), 3),
      },
    } : {}),
    gc_main: s.gc_main,
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

/**
 * Server RSS before and after opening `n` idle sockets, per socket (after a full GC in the child each time), on a
 * fresh process each round (`rounds` of them; a second round on the same process reuses the memory the first one's
 * sockets left to the allocator), reported as the median round: one reading moves by a few KiB per socket with the
 * process's other memory (quiet runs of the same code read 1.56x and 2.08x of the echo). Resident memory here is the
 * anonymous part (RssAnon: heaps, buffers, what sockets take); VmRSS also counts file-backed pages of the binary and
 * libraries, which the kernel drops and reads back on its own (a loaded run saw a process's VmRSS fall 8-100 MB between
 * two readings with no socket closed): it is reported beside it (vmrss_per_socket_kib).
 */
type IdleMemory = {
  sockets: number; rounds: number; sockets_seen_by_server: number; open_s: number | null; rss_before_kib: number | null; rss_after_kib: number | null;
  rss_per_socket_kib: number; vmrss_per_socket_kib: number; heap_and_external_per_socket_kib: number; rss_per_socket_kib_each_round: number[];
  rss_per_socket_kib_main_gc_only: number; wasm_per_socket_kib: number; c_heap_per_socket_kib: number; other_anon_per_socket_kib: number;
  rss_at_start_kib: number | null;
};

/** One round of idleMemory on a fresh process: RSS and heap per socket. */
async function idleRound(child: BenchChild, n: number, tokens: readonly string[] | null, idleWaitMs: number): Promise<Record<string, number>> {
  // RSS still moves for seconds after a start or a burst (the database worker's WASM code tiering up, heaps shrinking;
  // on a loaded machine a fresh server gave back ~100 MB well after holding still for one second): sampled once it
  // holds within 256 KiB for five seconds in a row (at most 60 s), each time after a full GC: of the main isolate
  // (`main`, as up to session 9), or of every isolate (`all`: the PGlite worker's too, whose pages from the sockets'
  // sign-in queries an idle worker otherwise keeps; #12 session 10: ~6 MB per 1,000 sockets).
  const settle = async (scope: 'main' | 'all'): Promise<{ rss: number; anon: number; stats: ChildStats; maps: Mapping[] }> => {
    let last = child.rssAnonKiB();
    let still = 0;
    for (let i = 0; i < 60 && still < 5; i++) {
      await sleep(1000);
      await child.gc(scope);
      const rss = child.rssAnonKiB();
      still = Math.abs(rss - last) < 256 ? still + 1 : 0;
      last = rss;
    }
    await sleep(300);
    await child.gc(scope);
    await sleep(500);
    return { rss: child.rssKiB(), anon: child.rssAnonKiB(), stats: await child.stats(), maps: readSmaps(child.pid) };
  };
  const heap = (s: ChildStats): number => s.memory.heapUsed + s.memory.external + s.memory.arrayBuffers;
  const startRss = child.rssKiB();
  // A fresh server gives memory back in steps for tens of seconds after its start while idle (at 10:15: RssAnon
  // 335 -> 304 MB by 15 s, then -79 MB at 36 s, with the main thread's heap flat at 40 MB: not the main isolate, which
  // the settling GCs reach): the reading starts once that is over.
  await sleep(idleWaitMs);
  // Warm up the connection path first, so code and pools allocated once are not billed to the sockets.
  const warm = await openIdle(child.url, 20, tokens, 10_000);
  await Promise.all(warm.map((ws) => closeSocket(ws)));
  const before = await settle('all');
  const t0 = performance.now();
  const sockets = await openIdle(child.url, n, tokens, 10_000);
  const openS = (performance.now() - t0) / 1000;
  try {
    const deadline = performance.now() + 10_000;
    while ((await child.stats()).sockets < n && performance.now() < deadline) await sleep(100);
    // The main isolate collected only (the worker's pages of the sockets' sign-ins counted), then every isolate.
    const afterMain = await settle('main');
    const after = await settle('all');
    const grew = growth(before.maps, after.maps);
    const spaces = Object.entries(after.stats.heap_spaces_kib).map(([name, a]) => {
      const b = before.stats.heap_spaces_kib[name] ?? { committed: 0, used: 0 };
      return `${name} ${a.committed - b.committed}/${a.used - b.used}`;
    });
    log(`idle round: main heap spaces, committed/used KiB gained: ${spaces.join(', ')}`);
    log(`idle round: anonymous memory grew most in ${topGrowers(before.maps, after.maps, 8).join('; ')}; by mapping size: ${JSON.stringify(growthBySize(before.maps, after.maps))}`);
    return {
      sockets_seen_by_server: after.stats.sockets,
      open_s: round(openS, 2),
      rss_before_kib: before.rss,
      rss_after_kib: after.rss,
      rss_anon_before_kib: before.anon,
      rss_anon_after_kib: after.anon,
      rss_per_socket_kib: round((after.anon - before.anon) / n, 2),
      rss_per_socket_kib_main_gc_only: round((afterMain.anon - before.anon) / n, 2),
      vmrss_per_socket_kib: round((after.rss - before.rss) / n, 2),
      heap_and_external_per_socket_kib: round((heap(after.stats) - heap(before.stats)) / 1024 / n, 2),
      // Where the anonymous memory grew (/proc/PID/smaps): PGlite's WebAssembly memory, the main C heap, the rest.
      wasm_per_socket_kib: round(grew.wasm / n, 2),
      c_heap_per_socket_kib: round(grew.c_heap / n, 2),
      other_anon_per_socket_kib: round(grew.other_anon / n, 2),
      rss_at_start_kib: startRss,
    };
  } finally {
    await Promise.all(sockets.map((ws) => closeSocket(ws)));
  }
}

async function idleMemory(startFresh: () => Promise<BenchChild>, n: number, tokens: readonly string[] | null, rounds: number, idleWaitMs: number): Promise<IdleMemory> {
  const samples: Record<string, number>[] = [];
  for (let i = 0; i < Math.max(1, rounds); i++) {
    const child = await startFresh();
    try {
      samples.push(await idleRound(child, n, tokens, idleWaitMs));
    } finally {
      await child.stop();
    }
  }
  const median = (key: string): number => {
    const v = samples.map((x) => x[key] ?? 0).sort((a, b) => a - b);
    return v[Math.floor((v.length - 1) / 2)] ?? 0;
  };
  const first = samples[0] ?? {};
  return {
    sockets: n,
    rounds: samples.length,
    sockets_seen_by_server: Math.min(...samples.map((x) => x.sockets_seen_by_server ?? 0)),
    open_s: first.open_s ?? null,
    rss_before_kib: first.rss_before_kib ?? null,
    rss_after_kib: first.rss_after_kib ?? null,
    rss_per_socket_kib: median('rss_per_socket_kib'),
    rss_per_socket_kib_main_gc_only: median('rss_per_socket_kib_main_gc_only'),
    vmrss_per_socket_kib: median('vmrss_per_socket_kib'),
    wasm_per_socket_kib: median('wasm_per_socket_kib'),
    c_heap_per_socket_kib: median('c_heap_per_socket_kib'),
    other_anon_per_socket_kib: median('other_anon_per_socket_kib'),
    heap_and_external_per_socket_kib: median('heap_and_external_per_socket_kib'),
    rss_per_socket_kib_each_round: samples.map((x) => x.rss_per_socket_kib ?? 0),
    rss_at_start_kib: first.rss_at_start_kib ?? null,
  };
}

function ratios(server: WindowResult, echo: WindowResult): Record<string, number | null> {
  return {
    p50: ratio(server.latency_ms.p50, echo.latency_ms.p50),
    p95: ratio(server.latency_ms.p95, echo.latency_ms.p95),
    p99: ratio(server.latency_ms.p99, echo.latency_ms.p99),
  };
}

type Backend = 'pglite' | 'postgres';

type Settings = {
  windowMs: number; echoWindowMs: number; periodMs: number; idleSockets: number; idleRounds: number; idleWaitMs: number; levels: number[]; profileLevel: number; profileDir: string;
  voice: string; storyId: string;
};

export async function run(): Promise<Record<string, unknown>> {
  const levels = (process.env.BENCH_SERVER_LEVELS ?? '100,500,1000,2000').split(',').map((s) => Math.round(Number(s.trim())));
  if (levels.some((l) => !Number.isInteger(l) || l < 1)) throw new Error(`BENCH_SERVER_LEVELS must list positive integers, got '${process.env.BENCH_SERVER_LEVELS ?? ''}'`);
  const backends = (process.env.BENCH_SERVER_DB ?? 'pglite,postgres').split(',').map((s) => s.trim()) as Backend[];
  if (backends.some((b) => b !== 'pglite' && b !== 'postgres')) throw new Error(`BENCH_SERVER_DB lists pglite and/or postgres, got '${process.env.BENCH_SERVER_DB ?? ''}'`);
  const windowMs = envNumber('BENCH_SERVER_WINDOW_S', 20) * 1000;
  const settings: Settings = {
    windowMs,
    echoWindowMs: envNumber('BENCH_SERVER_ECHO_WINDOW_S', Math.min(10, windowMs / 1000)) * 1000,
    periodMs: envNumber('BENCH_SERVER_PERIOD_MS', 2000),
    idleSockets: Math.round(envNumber('BENCH_SERVER_IDLE_SOCKETS', 5000)),
    idleRounds: Math.max(1, Math.round(envNumber('BENCH_SERVER_IDLE_ROUNDS', 3))),
    idleWaitMs: envNumber('BENCH_SERVER_IDLE_WAIT_S', 45) * 1000,
    levels,
    profileLevel: Math.round(envNumber('BENCH_SERVER_PROFILE_LEVEL', levels.includes(500) ? 500 : Math.max(...levels))),
    profileDir: process.env.BENCH_SERVER_PROFILE_DIR ?? mkdtempSync(join(tmpdir(), 'looptale-bench-prof-')),
    voice: process.env.BENCH_SERVER_VOICE ?? 'off',
    storyId: (JSON.parse(readFileSync(join(STORY_DIR, STORY, 'story.json'), 'utf8')) as { id: string }).id,
  };
  // The server keeps a few sockets per user (WS_MAX_SOCKETS_PER_USER, its default here): the idle sockets take turns
  // over the top level's players.
  const perUser = ConfigSchema.shape.WS_MAX_SOCKETS_PER_USER.parse(undefined);
  if (settings.idleSockets > perUser * Math.max(...levels)) throw new Error(`BENCH_SERVER_IDLE_SOCKETS (${settings.idleSockets}) needs a player for every ${perUser} sockets: the top of BENCH_SERVER_LEVELS is ${Math.max(...levels)}`);
  mkdirSync(settings.profileDir, { recursive: true });
  const began = performance.now();
  const loadBefore = os.loadavg();
  const started = new Date().toISOString();
  const out: Record<string, unknown> = {};
  const echo = await startChild('echo', 'echo', {});
  try {
    const echoIdleRss = echo.rssKiB();
    for (const backend of backends) out[backend] = await runBackend(backend, settings, echo);
    // The echo baseline's idle memory, on a fresh echo process too.
    await echo.stop();
    const echoIdle = await idleMemory(() => startChild('echo', 'echo', {}), settings.idleSockets, null, settings.idleRounds, settings.idleWaitMs);
    const goals: Record<string, unknown> = {};
    for (const backend of backends) {
      const b = out[backend] as { goals: Record<string, unknown>; idle_memory: IdleMemory };
      const per = b.idle_memory.rss_per_socket_kib;
      const echoPer = echoIdle.rss_per_socket_kib;
      const heapPer = b.idle_memory.heap_and_external_per_socket_kib;
      const echoHeapPer = echoIdle.heap_and_external_per_socket_kib;
      const valid = [...b.idle_memory.rss_per_socket_kib_each_round, ...echoIdle.rss_per_socket_kib_each_round].every((v) => v > 0)
        && b.idle_memory.sockets_seen_by_server >= settings.idleSockets && echoIdle.sockets_seen_by_server >= settings.idleSockets;
      b.goals.idle_memory = {
        goal: 'RSS (anonymous) per idle authenticated socket <= 2 x bare ws, both on fresh processes, each after a full GC of every isolate, median of the rounds',
        looptale_rss_per_socket_kib: per, echo_rss_per_socket_kib: echoPer, ratio: ratio(per, echoPer),
        // As measured up to session 9: after a GC of the main isolate only (what the PGlite worker keeps counted).
        looptale_rss_per_socket_kib_main_gc_only: b.idle_memory.rss_per_socket_kib_main_gc_only,
        echo_rss_per_socket_kib_main_gc_only: echoIdle.rss_per_socket_kib_main_gc_only,
        ratio_main_gc_only: ratio(b.idle_memory.rss_per_socket_kib_main_gc_only, echoIdle.rss_per_socket_kib_main_gc_only),
        looptale_heap_and_external_per_socket_kib: heapPer, echo_heap_and_external_per_socket_kib: echoHeapPer, heap_ratio: ratio(heapPer, echoHeapPer),
        // The median of the rounds on each side (rss_per_socket_kib_each_round shows the spread). A round that read
        // less memory with the sockets open than before them measured the process giving back other memory (a fresh
        // server still shrinking after its start), not the sockets: no verdict then; nor when the server saw fewer
        // sockets than were opened (fewer players than sockets: the per-user socket limit refuses the rest).
        rounds_valid: valid,
        met: valid ? per <= 2 * Math.max(echoPer, 0.5) : null,
        where_per_socket_kib: { wasm: b.idle_memory.wasm_per_socket_kib, c_heap: b.idle_memory.c_heap_per_socket_kib, other_anon: b.idle_memory.other_anon_per_socket_kib },
        echo_where_per_socket_kib: { wasm: echoIdle.wasm_per_socket_kib, c_heap: echoIdle.c_heap_per_socket_kib, other_anon: echoIdle.other_anon_per_socket_kib },
      };
      goals[backend] = b.goals;
    }
    return {
      name: 'server',
      started_at: started,
      voice: {
        VOICE: settings.voice,
        meaning: settings.voice === 'off'
          ? 'text turns; no local speech recognition or synthesis (as when an HTTP provider voices the replies): no AUDIO_ANSWER is sent'
          : 'local eSpeak synthesis on: every turn also pays for speech and MP3 encoding',
      },
      server_root: process.env.BENCH_SERVER_ROOT ?? '(this checkout)',
      settings: {
        story: STORY, plan: PLAN, period_ms: settings.periodMs, clock: CLOCK.says, window_s: settings.windowMs / 1000, echo_window_s: settings.echoWindowMs / 1000,
        levels, idle_sockets: settings.idleSockets, idle_rounds: settings.idleRounds, idle_wait_s: settings.idleWaitMs / 1000, profile_level: settings.profileLevel, profile_dir: settings.profileDir, limits_raised: LIMITS_RAISED,
        echo_rss_at_start_kib: echoIdleRss,
      },
      goals,
      ...out,
      echo_idle_memory: echoIdle,
      // Other work on the machine shares the cores with both servers and the load generator: read figures with it.
      machine_load_avg_1m: { before: round(loadBefore[0] ?? 0, 2), after: round(os.loadavg()[0] ?? 0, 2) },
      total_s: round((performance.now() - began) / 1000, 1),
    };
  } finally {
    await echo.stop().catch(() => undefined);
    closeAgents();
  }
}

async function runBackend(backend: Backend, s: Settings, echo: BenchChild): Promise<Record<string, unknown>> {
  const top = Math.max(...s.levels);
  const actions = planActions(join(STORY_DIR, STORY, PLAN));
  const opts = (sockets: number, ms: number): WindowOptions => ({ sockets, windowMs: ms, periodMs: s.periodMs, turnTimeoutMs: 15_000, connectTimeoutMs: 10_000 });
  const dataDir = mkdtempSync(join(tmpdir(), 'looptale-bench-'));
  let pg: ThrowawayPostgres | null = null;
  const children: BenchChild[] = [];
  try {
    if (backend === 'postgres') {
      log('starting a throwaway PostgreSQL 15 (fsync off)');
      pg = await startThrowawayPostgres({ database: 'bench' });
    }
    const serverEnv: Record<string, string> = {
      PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'production', VOICE: s.voice,
      SEED_STORIES: 'true', STORIES_DIR: STORY_DIR, ...(pg ? { DATABASE_URL: pg.url } : {}), ...LIMITS_RAISED,
    };
    log(`${backend}: starting the server (child process)`);
    // BENCH_SERVER_NODE_FLAGS: extra node flags for the measured server (e.g. '--trace-gc'; see BENCH_CHILD_LOG).
    const nodeFlags = (process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(' ').filter(Boolean);
    const looptale = await startChild(`looptale-${backend}`, 'looptale', serverEnv, { execArgv: nodeFlags });
    children.push(looptale);
    const rssAtStart = looptale.rssKiB();
    const dbCpu = dbServerCpu(pg ? postmasterPid(join(pg.dataDir, 'data')) : null);

    log(`${backend}: signing up ${top} players (one run of ${STORY} each)`);
    const tag = `${backend}-${Date.now().toString(36)}`;
    const t0 = performance.now();
    const signed = await pool(Array.from({ length: top }, (_, i) => i), 8, (i) => signUp(looptale.url, i, tag, s.storyId, 30_000));
    const setup = {
      players: top,
      source_addresses: Math.ceil(top / USERS_PER_ADDRESS),
      seconds: round((performance.now() - t0) / 1000, 1),
      signup_ms: summarize(signed.map((x) => x.signupMs)),
      first_run_create_ms: summarize(signed.map((x) => x.createMs)),
      rss_at_start_kib: rssAtStart,
      rss_after_signup_kib: looptale.rssKiB(),
      server_env: { ...serverEnv, DATA_DIR: '<temp dir>', ...(pg ? { DATABASE_URL: '<throwaway PostgreSQL 15, fsync off>' } : {}) },
    };
    const players: Player[] = signed.map((x) => x.player);

    // Warm-up (not recorded): JIT, pools and caches on both sides, so the first level is not a cold start.
    log(`${backend}: warming up`);
    const warm = { ...opts(Math.min(top, 50), 3000), periodMs: 500 };
    await looptaleWindow(looptale.url, players, actions, warm, { started: () => Promise.resolve() });
    await quiet(looptale);
    await echoWindow(echo.url, actions, players[0]?.runId ?? s.storyId, warm, { started: () => Promise.resolve() });

    const latency: Record<string, unknown> = {};
    const curve: Record<string, unknown>[] = [];
    const byLevel = new Map<number, { server: WindowResult; echo: WindowResult; stats: ChildStats }>();
    let profile: (ProfileResult & { level: number; latency_ms_while_profiled: WindowResult['latency_ms'] }) | null = null;
    for (const n of s.levels) {
      log(`${backend}: ${n} sockets: Looptale for ${s.windowMs / 1000} s`);
      const server = await looptaleWindow(looptale.url, players, actions, opts(n, s.windowMs), {
        started: async () => {
          await looptale.reset();
          dbCpu.start();
        },
      });
      const dbCores = dbCpu.cores();
      const serverStats = await looptale.stats();
      const serverRss = looptale.rssKiB();
      await quiet(looptale);
      log(`${backend}: ${n} sockets: echo for ${s.echoWindowMs / 1000} s`);
      const base = await echoWindow(echo.url, actions, players[0]?.runId ?? s.storyId, opts(n, s.echoWindowMs), { started: () => echo.reset() });
      const echoStats = await echo.stats();
      byLevel.set(n, { server, echo: base, stats: serverStats });
      if (n === s.profileLevel) {
        // The profile has a window of its own after the measured one: the profiler costs the server CPU (at 500
        // sockets on PGlite, 0.69 cores against 0.44-0.45 unprofiled), so a profiled window's latency is not the
        // server's. Its latency is reported beside the profile.
        await quiet(looptale);
        log(`${backend}: ${n} sockets: Looptale for ${s.windowMs / 1000} s (profiled, not measured)`);
        const profiledWindow = await looptaleWindow(looptale.url, players, actions, opts(n, s.windowMs), { started: () => looptale.profileStart() });
        profile = { level: n, latency_ms_while_profiled: profiledWindow.latency_ms, ...(await looptale.profileStop(s.profileDir, `${backend}-${n}`)) };
      }
      latency[String(n)] = {
        looptale: { ...server, server: serverFigures(serverStats, serverRss, server.turns_per_s, dbCores) },
        echo: { ...base, server: serverFigures(echoStats, echo.rssKiB(), base.turns_per_s) },
        ratio_looptale_over_echo: ratios(server, base),
      };
      curve.push({
        sockets: n, p50_ms: server.latency_ms.p50, p99_ms: server.latency_ms.p99, echo_p99_ms: base.latency_ms.p99,
        turns_per_s_offered: round((n * 1000) / s.periodMs, 1), turns_per_s_sent: server.turns_per_s,
        turns_per_s_served: round(server.latency_ms.n / (s.windowMs / 1000), 1), errors: Object.values(server.errors).reduce((a, b) => a + b, 0),
        server_cpu_cores: serverStats.cpu_cores, ...(dbCores !== null ? { db_server_cpu_cores: dbCores } : {}), server_rss_mib: round(serverRss / 1024, 1), event_loop_delay_p99_ms: serverStats.event_loop_delay_ms.p99,
        db_busy_fraction: serverStats.db?.busy_fraction ?? null, client_cpu_cores: server.client.cpu_cores,
        cpu_ms_per_turn_by_thread: (latency[String(n)] as { looptale: { server: Record<string, unknown> } }).looptale.server.cpu_ms_per_turn_by_thread ?? null,
        main_gc_pauses: { count: serverStats.gc_main.count, total_ms: serverStats.gc_main.total_ms, max_ms: serverStats.gc_main.max_ms, over_5ms: serverStats.gc_main.over_5ms },
      });
    }
    await looptale.stop();
    children.length = 0;

    // Idle memory on a fresh process: the same data (users, runs, tokens' signing secret), nothing else loaded yet.
    log(`${backend}: idle memory: ${s.idleSockets} sockets on a fresh server process`);
    const idle = await idleMemory(async () => {
      const fresh = await startChild(`looptale-${backend}-fresh`, 'looptale', serverEnv, { echoLines: 0 });
      children.length = 0;
      children.push(fresh);
      return fresh;
    }, s.idleSockets, players.map((p) => p.token), s.idleRounds, s.idleWaitMs);
    children.length = 0;

    const at = byLevel.get(500) ?? byLevel.get(top);
    const serverP99 = at?.server.latency_ms.p99 ?? null;
    const echoP99 = at?.echo.latency_ms.p99 ?? null;
    const limitMs = echoP99 === null ? null : round(1.5 * echoP99 + 10, 2);
    const level = at?.server.sockets ?? top;
    const served = at ? at.server.latency_ms.n : 0;
    const offered = at ? at.server.turns : 0;
    return {
      setup,
      curve,
      latency,
      idle_memory: idle,
      profile: profile ? { level: profile.level, latency_ms_while_profiled: profile.latency_ms_while_profiled, files: profile.files, threads: profile.summaries } : null,
      goals: {
        latency: {
          goal: `p99 at ${level} sockets <= 1.5 x echo p99 + 10 ms, every offered turn served`,
          looptale_p99_ms: serverP99, echo_p99_ms: echoP99, limit_ms: limitMs, turns_sent: offered, turns_answered: served,
          errors: at?.server.errors ?? {}, skipped_ticks: at?.server.skipped_ticks ?? null,
          met: serverP99 !== null && limitMs !== null && serverP99 <= limitMs && Object.keys(at?.server.errors ?? {}).length === 0 && served === offered && (at?.server.skipped_ticks ?? 0) === 0,
        },
      },
      server_log_lines: looptale.logLines(),
    };
  } finally {
    await Promise.all(children.map((c) => c.stop().catch(() => undefined)));
    await pg?.stop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
