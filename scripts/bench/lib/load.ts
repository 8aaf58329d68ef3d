// The load generator: N sockets, each sending one turn every `periodMs` (start times staggered over the first
// period) for a fixed window, against the Looptale server (real text turns) or the bare echo server (the same
// USER_INPUT bytes, echoed). Latency is from sending to the turn's final GAME_OUTPUT (or to the echo). A tick that
// comes while the previous turn is still out is skipped and counted (no catch-up bursts). The generator measures
// its own CPU and event-loop delay so a saturated client is visible.
import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { GameSocket } from '../../../cli/lib/game-client.js';
import { decodeClientFrame, encodeFrame } from '../../../engine/protocol/codec.js';
import { afterTurn, newRun, nextInput, type PlanAction, type Player } from './players.js';
import { round, summarize, type Summary } from './stats.js';

export type WindowOptions = { sockets: number; windowMs: number; periodMs: number; turnTimeoutMs: number; connectTimeoutMs: number };

export type WindowResult = {
  sockets: number;
  window_s: number;
  wall_s: number;
  connect_ms: Summary;
  turns: number;
  turns_per_s: number;
  /** Send to the turn's final GAME_OUTPUT (echo: send to the echo), ms. */
  latency_ms: Summary;
  errors: Record<string, number>;
  /** Ticks skipped because the previous turn was still out. */
  skipped_ticks: number;
  /** Looptale only: runs that ended and were started again through POST /api/player-stories. */
  runs_restarted?: number;
  run_create_ms?: Summary;
  client: { cpu_cores: number; event_loop_delay_p99_ms: number };
};

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/**
 * Opens one socket per item, at most 50 at once. If any fails, the ones already open are closed before the error
 * is thrown, so no socket outlives the bench.
 */
export async function openAll<T>(items: readonly T[], open: (item: T) => Promise<WebSocket>): Promise<WebSocket[]> {
  const opened: WebSocket[] = [];
  try {
    return await pool(items, 50, async (item) => {
      const ws = await open(item);
      opened.push(ws);
      return ws;
    });
  } catch (e) {
    await Promise.all(opened.map((ws) => closeSocket(ws)));
    throw e;
  }
}

/** Runs `fn` over `items` with at most `limit` at once. */
export async function pool<T, R>(items: readonly T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** A bare client for the echo server: one message out, the next message back. */
export class EchoSocket {
  #waiting: ((ms: number) => void) | null = null;
  #sentAt = 0;

  private constructor(readonly raw: WebSocket) {
    raw.on('message', (data: Buffer) => {
      const now = performance.now();
      // Decode like the game client does, so both loads cost the client about the same.
      decodeClientFrame(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
      const w = this.#waiting;
      this.#waiting = null;
      w?.(now - this.#sentAt);
    });
    raw.on('close', () => {
      const w = this.#waiting;
      this.#waiting = null;
      w?.(-1);
    });
  }

  static connect(baseUrl: string, timeoutMs: number): Promise<EchoSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws`, { handshakeTimeout: timeoutMs, perMessageDeflate: false });
      ws.on('error', (e) => reject(e));
      ws.once('open', () => resolve(new EchoSocket(ws)));
    });
  }

  /** Round trip in ms, or -1 when the socket closed or nothing came back in time. */
  send(bytes: Uint8Array, timeoutMs: number): Promise<number> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#waiting = null;
        resolve(-1);
      }, timeoutMs);
      this.#waiting = (ms) => {
        clearTimeout(timer);
        resolve(ms);
      };
      this.#sentAt = performance.now();
      this.raw.send(bytes);
    });
  }
}

/** Closes a socket, waiting at most `ms` for the closing handshake before cutting it. */
export function closeSocket(ws: WebSocket, ms = 3_000): Promise<void> {
  if (ws.readyState === WebSocket.CLOSED) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      ws.terminate();
      resolve();
    }, ms);
    ws.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    ws.close(1000);
  });
}

type Turn = (i: number) => Promise<{ ms: number; error: string | null }>;

/** The clock the windows run (BENCH_CLOCK), and how the bench's JSON states it. */
export const CLOCK = process.env.BENCH_CLOCK === 'even'
  ? { even: true, says: 'even: socket i at i/N of the period' }
  : { even: false, says: 'golden: socket i at frac(i x 0.618) of the period' };

/**
 * The phase of socket i in the period, in [0, 1): i times the golden ratio, modulo 1 (BENCH_CLOCK=even: i/N, the clock
 * before). Every socket still sends one turn per period and the N phases are spread over the whole period; what changes
 * is that any run of consecutive sockets is spread too. With i/N, the players of an earlier, smaller level (the first
 * 100 of the 500) ticked within the first fifth of each period and, having played the same plan in step, all finished
 * their runs at once: a burst of run creations no real crowd of players makes.
 */
export function phase(i: number, n: number): number {
  if (CLOCK.even) return i / n;
  const x = i * 0.6180339887498949;
  return x - Math.floor(x);
}

/** The shared clock: socket i ticks at start + phase(i) of a period, then every period, until the window ends. */
async function drive(n: number, opts: WindowOptions, turn: Turn): Promise<{ latencies: number[]; errors: Record<string, number>; skipped: number; turns: number; wallMs: number; cpu: number; eldP99: number }> {
  const latencies: number[] = [];
  const errors: Record<string, number> = {};
  let skipped = 0;
  let turns = 0;
  const eld = monitorEventLoopDelay({ resolution: 10 });
  const cpu0 = process.cpuUsage();
  eld.enable();
  const start = performance.now() + 50;
  const end = start + opts.windowMs;
  await Promise.all(Array.from({ length: n }, async (_, i) => {
    let tick = start + phase(i, n) * opts.periodMs;
    while (tick < end) {
      await sleep(tick - performance.now());
      turns++;
      const r = await turn(i);
      if (r.error) errors[r.error] = (errors[r.error] ?? 0) + 1;
      else latencies.push(r.ms);
      tick += opts.periodMs;
      const now = performance.now();
      while (tick < now) {
        tick += opts.periodMs;
        if (tick < end) skipped++;
      }
    }
  }));
  eld.disable();
  // The wall time includes the tail: turns sent before the end of the window and answered after it.
  const wallMs = performance.now() - start;
  const c = process.cpuUsage(cpu0);
  return { latencies, errors, skipped, turns, wallMs, cpu: (c.user + c.system) / 1000 / wallMs, eldP99: Math.max(0, eld.percentile(99) / 1e6 - 10) };
}

export async function looptaleWindow(baseUrl: string, players: readonly Player[], actions: readonly PlanAction[], opts: WindowOptions, hooks: { started(): Promise<void> }): Promise<WindowResult> {
  const group = players.slice(0, opts.sockets);
  if (group.length < opts.sockets) throw new Error(`${opts.sockets} sockets need ${opts.sockets} players, there are ${players.length}`);
  const connectMs: number[] = [];
  const byRaw = new Map<WebSocket, GameSocket>();
  const raws = await openAll(group, async (p) => {
    const t0 = performance.now();
    const s = await GameSocket.connect(baseUrl, p.token, { timeoutMs: opts.connectTimeoutMs });
    s.raw.on('error', () => undefined);
    connectMs.push(performance.now() - t0);
    byRaw.set(s.raw, s);
    return s.raw;
  });
  const sockets = raws.map((ws) => byRaw.get(ws) as GameSocket);
  try {
    let restarted = 0;
    const createMs: number[] = [];
    await hooks.started();
    const d = await drive(group.length, opts, async (i) => {
      const p = group[i] as Player;
      const s = sockets[i] as GameSocket;
      if (p.over) {
        const t0 = performance.now();
        try {
          await newRun(baseUrl, p, opts.turnTimeoutMs);
        } catch (e) {
          return { ms: -1, error: `run creation: ${(e as Error).message.slice(0, 60)}` };
        }
        createMs.push(performance.now() - t0);
        restarted++;
      }
      const r = await s.send(nextInput(p, actions), undefined, opts.turnTimeoutMs);
      const error = afterTurn(p, r);
      return { ms: r.lastOutputMs, error };
    });
    return {
      ...common(group.length, opts, connectMs, d),
      runs_restarted: restarted,
      run_create_ms: summarize(createMs),
    };
  } finally {
    await Promise.all(sockets.map((s) => closeSocket(s.raw)));
  }
}

export async function echoWindow(baseUrl: string, actions: readonly PlanAction[], playerStoryId: string, opts: WindowOptions, hooks: { started(): Promise<void> }): Promise<WindowResult> {
  const connectMs: number[] = [];
  const byRaw = new Map<WebSocket, EchoSocket>();
  const raws = await openAll(Array.from({ length: opts.sockets }, (_, i) => i), async () => {
    const t0 = performance.now();
    const s = await EchoSocket.connect(baseUrl, opts.connectTimeoutMs);
    s.raw.on('error', () => undefined);
    connectMs.push(performance.now() - t0);
    byRaw.set(s.raw, s);
    return s.raw;
  });
  const sockets = raws.map((ws) => byRaw.get(ws) as EchoSocket);
  const cursors = sockets.map(() => 0);
  try {
    await hooks.started();
    const d = await drive(sockets.length, opts, async (i) => {
      const action = actions[(cursors[i] = (cursors[i] ?? 0) + 1) % actions.length] ?? { start: true };
      const bytes = encodeFrame({
        type: 'USER_INPUT',
        input: { input_id: randomUUID(), player_story_id: playerStoryId, is_starting_dialogue: action.start, ...(action.start ? {} : { transcription: action.text }) },
      });
      const ms = await (sockets[i] as EchoSocket).send(bytes, opts.turnTimeoutMs);
      return ms < 0 ? { ms, error: 'no echo' } : { ms, error: null };
    });
    return common(sockets.length, opts, connectMs, d);
  } finally {
    await Promise.all(sockets.map((s) => closeSocket(s.raw)));
  }
}

function common(n: number, opts: WindowOptions, connectMs: number[], d: Awaited<ReturnType<typeof drive>>): WindowResult {
  return {
    sockets: n,
    window_s: round(opts.windowMs / 1000, 1),
    /** From the first tick to the last answer (the window plus the turns still out when it closed). */
    wall_s: round(d.wallMs / 1000, 1),
    connect_ms: summarize(connectMs),
    turns: d.turns,
    turns_per_s: round(d.turns / (opts.windowMs / 1000), 1),
    latency_ms: summarize(d.latencies),
    errors: d.errors,
    skipped_ticks: d.skipped,
    client: { cpu_cores: round(d.cpu, 3), event_loop_delay_p99_ms: round(d.eldP99, 2) },
  };
}

/** Opens `n` idle sockets (Looptale: authenticated with the given tokens in turn; echo: plain). */
export async function openIdle(baseUrl: string, n: number, tokens: readonly string[] | null, connectTimeoutMs: number): Promise<WebSocket[]> {
  return openAll(Array.from({ length: n }, (_, i) => i), async (i) => {
    if (tokens) {
      const s = await GameSocket.connect(baseUrl, tokens[i % tokens.length] ?? '', { timeoutMs: connectTimeoutMs });
      s.raw.on('error', () => undefined);
      return s.raw;
    }
    const s = await EchoSocket.connect(baseUrl, connectTimeoutMs);
    s.raw.on('error', () => undefined);
    return s.raw;
  });
}
