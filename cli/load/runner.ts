// The load harness: N virtual players, each signing up, starting runs of a fixture story and playing its test plan
// by text or with recorded audio, with think time, for a duration. By default players keep a person's pace
// (`pace: 'player'`): a recorded answer takes as long to say as the clip lasts before it is sent, and after each answer
// the player listens to the reply's speech to its end before thinking of the next line. `pace: 'flat-out'` sends the
// next line a think time after each GAME_OUTPUT, while the reply is still being synthesised: a capacity test. Sockets are dropped at random when asked: the
// client reconnects and replays its pending input as the spec's client does (same input_id). A socket the server
// closes (a restart, a kill -9) is reconnected at once, between turns too, as `play` does; requests that meet a server
// that is down are retried until it is back. Every wait of a player (a turn until acknowledged, reconnects and replays
// included; a request) longer than the stall threshold is a stall, and a stall fails the run. At the end the harness
// checks on the server that no acknowledged turn was lost and none counted twice.
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { PlanStep } from '../../engine/story/testplan.js';
import type { GameOutput } from '../../engine/schema/game-output.js';
import type { PlayerStory } from '../../engine/schema/player.js';
import { parseTranscript } from '../../engine/sim/transcript.js';
import { Api, ApiError, GameSocket, type TurnResult } from '../lib/game-client.js';
import { isNotCaught } from '../../engine/protocol/turn-errors.js';
import { scrapeMetrics, serverMetrics, type ServerMetrics } from './server-metrics.js';
import { summarize, type Summary } from './stats.js';
import { mp3DurationMs } from './speech-duration.js';
import { PlayerLog, type Stall } from './timeline.js';

/** How players pace themselves: as a person plays (speak in real time, listen to the reply), or flat out. */
export type Pace = 'player' | 'flat-out';

/** A recorded line: its file and how long it lasts (the sidecar's `seconds`). */
export type Clip = { file: string; format: 'wav' | 'mp3'; seconds: number };

/**
 * With `pace: 'player'`, the longest a player waits for a reply's speech to begin before answering anyway (it reads the
 * reply on screen); in a text load, until any player has heard this server speak, none waits (a server without voice).
 */
const FIRST_SPEECH_WAIT_MS = { heard: 5_000, never: 0 };
/** A pause this long after the last chunk played ends the reply. */
const SPEECH_GAP_MS = 400;

export type LoadOptions = {
  url: string;
  clients: number;
  rampS: number;
  durationS: number;
  thinkTimeS: number;
  dropRate: number;
  storyId: string;
  plan: PlanStep[];
  /** Clips by exact line text (from fixtures/audio sidecars); empty in text mode. */
  clips: Map<string, Clip>;
  /** Default 'player'. */
  pace?: Pace;
  password: string;
  seed: number;
  /** A player kept waiting longer than this (ms) is stalled. */
  stallMs: number;
  /** How long a player keeps trying to reach a server that is down before giving up (ms). */
  patienceMs?: number;
};

type RunRecord = { id: string; acked: Map<string, GameOutput[]> };

export type LoadSnapshot = {
  connected: number;
  turns: number;
  turnsPerSecond: number;
  errors: number;
  drops: number;
  latency: Summary;
  elapsedS: number;
};

export type LoadReport = {
  options: { clients: number; ramp_s: number; duration_s: number; think_time_s: number; drop_rate: number; mode: 'audio' | 'text'; pace: Pace };
  turns: number;
  turns_per_second: number;
  runs: number;
  drops: number;
  reconnects: number;
  /** Audio turns answered "Sorry, I didn't catch that." (then typed); not errors. */
  stt_not_caught: number;
  errors: Record<string, number>;
  latency_ms: Record<string, Summary>;
  server_stages_ms: Record<string, Summary>;
  verification: { runs_checked: number; acknowledged_turns: number; lost_turns: number; doubled_turns: number; count_mismatches: number; problems: string[] };
  /** With --spawn-server --kill-every: when the server was killed with SIGKILL, and how long until it served again. */
  restarts?: { at_s: number; down_ms: number }[];
  /** Waits longer than the threshold: a turn until acknowledged (reconnects and replays included), or a request. */
  stalls: { threshold_s: number; count: number; longest_wait_ms: number; examples: Stall[] };
  load_generator: { cpu_cores: number; event_loop_delay_p99_ms: number };
  /** The server's GET /metrics figures (turn and error counters as deltas over the load); null when it has none. */
  server_metrics: ServerMetrics | null;
  /** Why server_metrics is null. */
  server_metrics_error: string | null;
};

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Failures worth retrying: rate-limited, or a server that is down, restarting or overloaded. */
const transient = (e: unknown): boolean => e instanceof ApiError && (e.status === 0 || e.status === 429 || e.status === 502 || e.status === 503 || e.status === 504);

/**
 * Retries a request that failed transiently (429, or the server unreachable: a restart), backing off, for up to
 * `patienceMs`; other errors pass through. `retried` tells the caller that an earlier attempt may have been applied.
 */
async function patiently<T>(fn: (retried: boolean) => Promise<T>, patienceMs = 60_000, onRetry?: (e: unknown, delayMs: number) => void): Promise<T> {
  const end = performance.now() + patienceMs;
  for (let i = 1; ; i++) {
    try {
      return await fn(i > 1);
    } catch (e) {
      if (!transient(e) || performance.now() >= end) throw e;
      // The server unreachable (restarting): try again soon, as sockets do; an answer (429, 502-504): back off more.
      const delay = e instanceof ApiError && e.status === 0 ? reconnectDelayMs(i) : Math.min(2000, 100 * i);
      onRetry?.(e, delay);
      await sleep(delay);
    }
  }
}

/**
 * The pause before a player's next attempt to open a socket (a server that is down, restarting). A refused connection
 * on this machine costs next to nothing, so the harness keeps trying often: with a back-off growing to 1 s (600 ms
 * by the time a restart of ~3 s was over), a player found the server back up to 0.6 s late, and that showed in its
 * wait. The spec's client retries every 5 s; this is a test tool measuring the server.
 */
export function reconnectDelayMs(attempt: number): number {
  return Math.min(200, 50 * attempt);
}

/** Clips of fixtures/audio (sidecar JSON with the spoken text), by text. */
export function loadClips(dir: string): Map<string, Clip> {
  const clips = new Map<string, Clip>();
  const walk = (d: string): void => {
    for (const name of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, name.name);
      if (name.isDirectory()) walk(p);
      else if (name.name.endsWith('.json')) {
        try {
          const side = JSON.parse(readFileSync(p, 'utf8')) as { text?: string; seconds?: number };
          const base = p.replace(/\.json$/, '');
          const file = existsSync(`${base}.wav`) ? `${base}.wav` : existsSync(`${base}.mp3`) ? `${base}.mp3` : null;
          if (side.text && file && !clips.has(side.text)) {
            const format = file.endsWith('.wav') ? 'wav' : 'mp3';
            const seconds = typeof side.seconds === 'number' ? side.seconds : format === 'mp3' ? mp3DurationMs(readFileSync(file)) / 1000 : wavSeconds(readFileSync(file));
            clips.set(side.text, { file, format, seconds });
          }
        } catch {
          // not a sidecar
        }
      }
    }
  };
  if (existsSync(dir)) walk(dir);
  return clips;
}

/** Seconds of a 16-bit PCM WAV (its data size over the byte rate of its header), 0 when unreadable. */
function wavSeconds(b: Uint8Array): number {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (b.length < 44) return 0;
  const byteRate = v.getUint32(28, true);
  return byteRate ? (b.length - 44) / byteRate : 0;
}

/** Time for Ears: real by default, simulated in tests. */
export type EarClock = { now: () => number; sleep: (ms: number) => Promise<void> };
const realClock: EarClock = { now: () => performance.now(), sleep };

/** Whether the server has been heard speaking, by any player of the load. */
export type Hearing = { heardAny: boolean };

/**
 * What a player hears: the replies' speech (AUDIO_ANSWER chunks) played one after another, as a client plays them.
 * When the player starts saying its next line, what still plays stops and later chunks of earlier replies are dropped
 * (the game screen does the same when the player talks over the character: engine/client/voice-loop.ts).
 */
export class Ears {
  /** When what has arrived so far will have played (performance.now() time). */
  #playedUntil = 0;
  readonly #byInput = new Map<string, { chunks: number; lastAt: number }>();
  /** The input whose reply the player is waiting for; chunks of any other are not heard. */
  #current: string | null = null;

  constructor(readonly clock: EarClock = realClock, readonly hearing: Hearing = { heardAny: false }) {}

  /** The player starts saying the line `inputId` (or taps start): what plays stops. */
  speak(inputId: string): void {
    this.#current = inputId;
    this.#playedUntil = this.clock.now();
    this.#byInput.clear();
  }

  chunk(inputId: string, atMs: number, audio: Uint8Array): void {
    this.hearing.heardAny = true;
    if (this.#current !== null && inputId !== this.#current) return;
    this.#playedUntil = Math.max(this.#playedUntil, atMs) + mp3DurationMs(audio);
    const e = this.#byInput.get(inputId) ?? { chunks: 0, lastAt: 0 };
    e.chunks++;
    e.lastAt = atMs;
    this.#byInput.set(inputId, e);
  }

  /**
   * Waits until the reply to `inputId` has been spoken: its first chunk (up to FIRST_SPEECH_WAIT_MS: the player then
   * answers from the text on screen), then until everything that came has played and nothing more came for
   * SPEECH_GAP_MS. Returns how long it listened.
   */
  async listen(inputId: string, stopped: () => boolean = () => false): Promise<number> {
    const { now, sleep: wait } = this.clock;
    const t0 = now();
    const firstWait = this.hearing.heardAny ? FIRST_SPEECH_WAIT_MS.heard : FIRST_SPEECH_WAIT_MS.never;
    while (!this.#byInput.has(inputId) && now() - t0 < firstWait && !stopped()) await wait(50);
    for (;;) {
      const e = this.#byInput.get(inputId);
      if (!e || stopped()) break;
      const until = Math.max(this.#playedUntil, e.lastAt + SPEECH_GAP_MS);
      const t = now();
      if (t >= until) break;
      await wait(Math.min(250, until - t));
    }
    this.#byInput.delete(inputId);
    return now() - t0;
  }

  /** An input whose reply will not be heard (its answer came on another socket: the speech went to the closed one). */
  forget(inputId: string): void {
    this.#byInput.delete(inputId);
  }
}

export class LoadRunner {
  readonly latencies: Record<string, number[]> = { game_output_first: [], game_output_final: [], audio_answer_first: [], listening: [] };
  /** Audio turns the recogniser did not catch ("Sorry, I didn't catch that."): the player then types the line. */
  notCaught = 0;
  readonly errors: Record<string, number> = {};
  readonly runs: RunRecord[] = [];
  turns = 0;
  drops = 0;
  reconnects = 0;
  connected = 0;
  readonly stalls: Stall[] = [];
  #longestWait = 0;
  #stallCount = 0;
  #start = 0;
  #stop = false;
  #rand: () => number;

  constructor(readonly o: LoadOptions) {
    this.#rand = rng(o.seed);
    this.#hearing = { heardAny: o.clips.size > 0 };
  }

  snapshot(): LoadSnapshot {
    const elapsed = this.#start ? (performance.now() - this.#start) / 1000 : 0;
    return {
      connected: this.connected, turns: this.turns, turnsPerSecond: elapsed ? Math.round((this.turns / elapsed) * 10) / 10 : 0,
      errors: Object.values(this.errors).reduce((a, b) => a + b, 0), drops: this.drops,
      latency: summarize(this.latencies.game_output_final ?? []), elapsedS: Math.round(elapsed),
    };
  }

  #error(kind: string): void {
    this.errors[kind] = (this.errors[kind] ?? 0) + 1;
  }

  async run(): Promise<LoadReport> {
    const before = await scrapeMetrics(this.o.url);
    const cpu0 = process.cpuUsage();
    const eld = monitorEventLoopDelay({ resolution: 10 });
    eld.enable();
    this.#start = performance.now();
    const deadline = this.#start + this.o.durationS * 1000;
    const players = Array.from({ length: this.o.clients }, (_, i) => (async () => {
      await sleep((this.o.rampS * 1000 * i) / Math.max(1, this.o.clients));
      await this.#player(i, deadline).catch((e: unknown) => this.#error(`player: ${(e as Error).message.slice(0, 80)}`));
    })());
    await Promise.all(players);
    const wall = (performance.now() - this.#start) / 1000;
    eld.disable();
    const cpu = process.cpuUsage(cpu0);
    const after = await scrapeMetrics(this.o.url);
    const verification = await this.#verify();
    const stages = await this.#serverStages();
    return {
      options: { clients: this.o.clients, ramp_s: this.o.rampS, duration_s: this.o.durationS, think_time_s: this.o.thinkTimeS, drop_rate: this.o.dropRate, mode: this.o.clips.size ? 'audio' : 'text', pace: this.#pace },
      turns: this.turns, turns_per_second: Math.round((this.turns / wall) * 10) / 10, runs: this.runs.length, drops: this.drops, reconnects: this.reconnects,
      stt_not_caught: this.notCaught,
      errors: this.errors,
      latency_ms: Object.fromEntries(Object.entries(this.latencies).map(([k, v]) => [k, summarize(v)])),
      server_stages_ms: stages,
      verification,
      stalls: { threshold_s: this.o.stallMs / 1000, count: this.#stallCount, longest_wait_ms: Math.round(this.#longestWait), examples: this.stalls.slice(0, 20) },
      load_generator: { cpu_cores: Math.round(((cpu.user + cpu.system) / 1e6 / wall) * 1000) / 1000, event_loop_delay_p99_ms: Math.round(eld.percentile(99) / 1e4) / 100 },
      server_metrics: after.ok ? serverMetrics(before.ok ? before.samples : null, after.samples) : null,
      server_metrics_error: after.ok ? null : after.error,
    };
  }

  stop(): void {
    this.#stop = true;
  }

  /**
   * Shared by the players: once one has heard the server speak, all wait for speech. A load of recorded answers expects
   * a server that speaks from the start (one that hears voices is run with its voice).
   */
  readonly #hearing: Hearing;

  get #pace(): Pace {
    return this.o.pace ?? 'player';
  }

  /** Seconds since the load started. */
  #nowS(): number {
    return (performance.now() - this.#start) / 1000;
  }

  /** Records how long a player waited for `what` (from `t0`); past the threshold it is a stall, with its timeline. */
  #waited(player: number, what: string, t0: number, log: PlayerLog, inputId?: string): void {
    const ms = performance.now() - t0;
    this.#longestWait = Math.max(this.#longestWait, ms);
    if (ms <= this.o.stallMs) return;
    this.#stallCount++;
    if (this.stalls.length < 20) {
      this.stalls.push({
        player, what, waited_ms: Math.round(ms), at_s: Math.round(this.#nowS() * 10) / 10,
        ...(inputId ? { input_id: inputId } : {}), timeline: log.since((t0 - this.#start) / 1000),
      });
    }
  }

  /** Runs a request patiently (a server that is down is waited for), timing it as a wait of the player. */
  async #request<T>(player: number, log: PlayerLog, what: string, fn: (retried: boolean) => Promise<T>): Promise<T> {
    const t0 = performance.now();
    try {
      return await patiently(fn, this.o.patienceMs, (e, delay) => log.again(`${what}: retry`, `${what}: ${(e as Error).message.slice(0, 60)}; again in ${delay} ms`));
    } finally {
      this.#waited(player, what, t0, log);
    }
  }

  async #player(i: number, deadline: number): Promise<void> {
    const patience = this.o.patienceMs ?? 60_000;
    const api = new Api(this.o.url, null, { timeoutMs: 30_000 });
    const log = new PlayerLog(() => this.#nowS());
    const email = `load-${i}-${randomUUID()}@example.com`;
    // An account made by an attempt whose answer was lost (the server died) is signed in to instead.
    await this.#request(i, log, 'sign-up', async (retried) => {
      try {
        await api.signUp(email, this.o.password);
      } catch (e) {
        if (retried && e instanceof ApiError && e.status === 422) await api.signIn(email, this.o.password);
        else throw e;
      }
    });
    // First AUDIO_ANSWER of each input, measured from its sending (speech follows the turn's GAME_OUTPUT).
    const audioWatch = new Map<string, number>();
    const ears = new Ears(undefined, this.#hearing);
    let socket: GameSocket | null = null;
    let reconnecting: Promise<GameSocket> | null = null;
    let closing = false;
    let opened = 0;
    /** Opens a socket, retrying while the server is down; as `play` does, a socket that closes is replaced at once. */
    const open = async (): Promise<GameSocket> => {
      const end = performance.now() + patience;
      for (let attempt = 1; ; attempt++) {
        try {
          const s = await GameSocket.connect(this.o.url, api.token ?? '');
          s.onAudio = (chunk) => {
            if (this.#pace === 'player') ears.chunk(chunk.header.input_id, chunk.atMs, chunk.audio);
            const t0 = audioWatch.get(chunk.header.input_id);
            if (t0 === undefined) return;
            audioWatch.delete(chunk.header.input_id);
            this.latencies.audio_answer_first?.push(chunk.atMs - t0);
          };
          s.onClose = (info) => {
            if (socket !== s) return;
            log.add(`socket closed (${info.code})`);
            socket = null;
            this.connected--;
            // A failure to reconnect surfaces at the player's next send (which calls ensure again).
            if (!closing) ensure().catch(() => undefined);
          };
          socket = s;
          this.connected++;
          if (opened++ > 0) this.reconnects++;
          log.add(`socket open (attempt ${attempt})`);
          return s;
        } catch (e) {
          if (performance.now() >= end) throw new Error(`could not reconnect within ${Math.round(patience / 1000)} s: ${(e as Error).message}`, { cause: e });
          const delay = reconnectDelayMs(attempt);
          const why = (e as Error).message.replace(/^Cannot connect to \S+: /, '').replace(/ \d+\.\d+\.\d+\.\d+:\d+$/, '').slice(0, 50);
          log.again(`connect failed: ${why}`, `connect attempt ${attempt} failed (${why}); next in ${delay} ms`);
          await sleep(delay);
        }
      }
    };
    /** The open socket, or the one being opened. */
    const ensure = (): Promise<GameSocket> => {
      if (socket?.isOpen) return Promise.resolve(socket);
      reconnecting ??= open().finally(() => {
        reconnecting = null;
      });
      return reconnecting;
    };
    await ensure();
    /** Sends one input, replaying it after a dropped socket until it is acknowledged; the whole wait is timed. */
    const send = async (run: RunRecord, input: Parameters<GameSocket['send']>[0], audio?: Uint8Array): Promise<TurnResult | null> => {
      const full = { ...input, input_id: input.input_id ?? randomUUID() };
      const waitStart = performance.now();
      const done = (r: TurnResult | null): TurnResult | null => {
        this.#waited(i, full.is_starting_dialogue ? 'turn (start)' : 'turn', waitStart, log, full.input_id);
        return r;
      };
      // Sockets the harness kills itself do not count against the 5 attempts: at a 20% drop rate, five drops in a row
      // happen to about 1 input in 3,000, which made a correct server fail the check now and then.
      for (let failures = 0, sends = 0; failures < 5 && sends < 50; sends++) {
        const sock = await ensure();
        const drop = this.#rand() < this.o.dropRate;
        const t0 = performance.now();
        audioWatch.set(full.input_id, t0);
        const pending = sock.send(full, audio, 60_000);
        log.add(`${sends ? 'resent' : 'sent'} ${full.is_starting_dialogue ? 'start' : audio ? 'audio' : 'text'} ${full.input_id.slice(0, 8)}${drop ? ', socket dropped by the harness' : ''}`);
        if (drop) {
          this.drops++;
          sock.raw.terminate();
        }
        const r = await pending;
        log.add(r.error ? `answer: ${r.error.slice(0, 60)}` : `answer: GAME_OUTPUT after ${Math.round(r.firstOutputMs)} ms`);
        if (r.error && /connection closed|no answer/.test(r.error)) {
          if (!drop) failures++;
          if (/no answer/.test(r.error)) sock.raw.terminate();
          continue; // the pending input is replayed with the same input_id, on a fresh socket
        }
        this.turns++;
        // Answered after a resend: the reply's speech went to the socket that closed, and is not heard.
        if (sends > 0) ears.forget(full.input_id);
        if (isNotCaught(r) && audio) {
          this.notCaught++;
          return done(r);
        }
        if (r.error) {
          this.#error(`ERROR_MESSAGE: ${r.error.slice(0, 80)}`);
          return done(null);
        }
        this.latencies.game_output_first?.push(r.firstOutputMs);
        this.latencies.game_output_final?.push(r.lastOutputMs);
        sock.audio.length = 0; // chunks are measured by onAudio; nothing else reads them here
        run.acked.set(full.input_id, r.outputs);
        return done(r);
      }
      this.#error('turn never acknowledged');
      return done(null);
    };
    try {
      while (performance.now() < deadline && !this.#stop) {
        const created = await this.#request(i, log, 'start a run', () => api.request<PlayerStory>('POST', '/api/player-stories', { blueprint_story_id: this.o.storyId, language: 'english' }));
        const run: RunRecord = { id: created.id, acked: new Map() };
        this.runs.push(run);
        this.#owner.set(run.id, api.token ?? '');
        let last: GameOutput | null = null;
        let started = false;
        let over = false;
        const paced = this.#pace === 'player';
        /** With pace 'player': the player hears the reply out before going on. */
        const listen = async (r: TurnResult | null): Promise<void> => {
          if (!paced || !r || r.error && !isNotCaught(r)) return;
          this.latencies.listening?.push(await ears.listen(r.input_id, () => this.#stop || performance.now() >= deadline));
        };
        const turn = async (text: string | null): Promise<void> => {
          const clip = text ? this.o.clips.get(text) : undefined;
          const audio = clip ? new Uint8Array(readFileSync(clip.file)) : undefined;
          // Saying the line takes as long as the recording lasts; the client sends it when the player stops.
          const input_id = randomUUID();
          ears.speak(input_id);
          if (paced && clip) await sleep(clip.seconds * 1000);
          let r = await send(run, {
            input_id, player_story_id: run.id, is_starting_dialogue: text === null,
            ...(text === null ? {} : clip ? { audio_format: clip.format } : { transcription: text }),
          }, audio);
          // Not caught: the player hears the apology, then types the line instead, as the game screen lets them.
          if (r && isNotCaught(r) && text !== null) {
            await listen(r);
            const typed = randomUUID();
            ears.speak(typed);
            r = await send(run, { input_id: typed, player_story_id: run.id, is_starting_dialogue: false, transcription: text });
          }
          await listen(r);
          const out = r?.outputs.at(-1);
          if (!out) return;
          last = out;
          started = !out.complete_the_moment;
          over = out.loop_status !== 'loopStatusOnGoing';
        };
        for (const s of this.o.plan) {
          if (over || performance.now() >= deadline || this.#stop) break;
          if (s.verb !== 'say' && s.verb !== 'defend' && s.verb !== 'start') continue;
          for (let k = 0; k < 30 && !started && !over; k++) await turn(null);
          if (over) break;
          let text = s.arg;
          if (s.verb === 'defend') {
            const l = last as GameOutput | null;
            const struck = l?.player_characters.find((c) => c.character_id === l.battle_pending_strike?.target_id)?.character_name.toLowerCase() ?? '';
            const options = s.arg.split('|').map((x) => x.split(':')).map(([n = '', ...w]) => ({ name: n.trim().toLowerCase(), text: w.join(':').trim() }));
            text = options.find((o) => struck === o.name || struck.startsWith(`${o.name} `))?.text ?? options[0]?.text ?? '';
          }
          if (s.verb === 'start') await turn(null);
          else await turn(text);
          await sleep(this.o.thinkTimeS * 1000 * (0.5 + this.#rand()));
        }
        if (!over) {
          try {
            await this.#request(i, log, 'end the run', async (retried) => {
              try {
                await api.request('POST', `/api/player-stories/${run.id}/end`);
              } catch (e) {
                // An earlier attempt may have ended it before its answer was lost (409, or the run reads as ended).
                if (retried && e instanceof ApiError && e.status === 409) return;
                const row = retried && e instanceof ApiError && e.status < 500 ? await api.request<PlayerStory>('GET', `/api/player-stories/${run.id}`) : null;
                if (row?.loop_status !== 'loopStatusLost' && row?.loop_status !== 'loopStatusWon') throw e;
              }
            });
          } catch {
            this.#error('end run failed');
          }
        }
      }
    } finally {
      closing = true;
      await (reconnecting as Promise<GameSocket> | null)?.catch(() => null);
      const s = socket as GameSocket | null;
      if (s) {
        socket = null;
        this.connected--;
        await s.close();
      }
    }
  }

  /** The token of the player who owns each run, for the checks at the end. */
  readonly #owner = new Map<string, string>();

  async #verify(): Promise<LoadReport['verification']> {
    const problems: string[] = [];
    let acked = 0;
    let lost = 0;
    let doubled = 0;
    let mismatch = 0;
    for (const run of this.runs) {
      const api = new Api(this.o.url, this.#owner.get(run.id) ?? null);
      const row = await patiently(() => api.request<PlayerStory>('GET', `/api/player-stories/${run.id}`), this.o.patienceMs);
      const text = await patiently(() => api.request<string>('GET', `/api/player-stories/${run.id}/transcript`), this.o.patienceMs);
      const t = parseTranscript(typeof text === 'string' ? text : '');
      if (!t.ok) {
        problems.push(`run ${run.id}: transcript unreadable: ${t.error}`);
        continue;
      }
      const seen = new Map<string, number>();
      for (const e of t.transcript.events) if (e.event.type === 'turn') seen.set(e.event.input_id, (seen.get(e.event.input_id) ?? 0) + 1);
      for (const e of t.transcript.events) {
        if (e.event.type !== 'turn' || !e.stages) continue;
        const id = e.event.input_id;
        for (const x of this.stalls) if (x.input_id === id) x.server_stages = e.stages;
      }
      for (const [id, n] of seen) if (n > 1) {
        doubled++;
        problems.push(`run ${run.id}: input ${id} processed ${n} times`);
      }
      for (const id of run.acked.keys()) {
        acked++;
        if (!seen.has(id)) {
          lost++;
          problems.push(`run ${run.id}: acknowledged input ${id} is not in the transcript`);
        }
      }
      const lastCount = [...run.acked.values()].flat().at(-1)?.loop_current_number_of_interactions;
      if (lastCount !== undefined && lastCount !== row.loop_current_number_of_interactions) {
        mismatch++;
        problems.push(`run ${run.id}: ${row.loop_current_number_of_interactions} interactions stored, ${lastCount} acknowledged`);
      }
    }
    return { runs_checked: this.runs.length, acknowledged_turns: acked, lost_turns: lost, doubled_turns: doubled, count_mismatches: mismatch, problems: problems.slice(0, 20) };
  }

  async #serverStages(): Promise<Record<string, Summary>> {
    const all: Record<string, number[]> = {};
    for (const run of this.runs.slice(0, 200)) {
      const api = new Api(this.o.url, this.#owner.get(run.id) ?? null);
      const text = await patiently(() => api.request<string>('GET', `/api/player-stories/${run.id}/transcript`)).catch(() => '');
      const t = parseTranscript(typeof text === 'string' ? text : '');
      if (!t.ok) continue;
      for (const e of t.transcript.events) for (const [k, v] of Object.entries(e.stages ?? {})) (all[k] ??= []).push(v);
    }
    return Object.fromEntries(Object.entries(all).map(([k, v]) => [k, summarize(v)]));
  }
}
