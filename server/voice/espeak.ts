// Offline text-to-speech: eSpeak NG (WASM, from npm) in one long-lived worker thread that also encodes MP3. Each
// character gets its own voice; emotion changes rate, pitch, range and volume; one MP3 chunk per sentence, the first
// yielded as soon as it is encoded while the worker goes on with the next.
//
// Under load the sentences wait here, not in the worker: the worker holds at most IN_FLIGHT of them (one being made,
// the next ready to start), and the waiting ones are handed out in turn across the lines being spoken, so a new line
// does not wait for every sentence of every earlier line, and a line abandoned half-way (the player left) drops what it
// has not started. If the worker dies or hangs, only the sentences it held fail; it is restarted and serves the rest.
import { Worker } from 'node:worker_threads';
import type { Logger } from '../log.js';
import { EspeakEngine, ESPEAK_RATE, type EspeakParams } from './espeak-engine.js';
import type { WorkerReply, WorkerRequest } from './espeak-worker-main.js';
import { encodeMp3, warmUpMp3 } from './mp3.js';
import { speechChunks } from './sentences.js';
import type { SpeakRequest, Synthesizer } from './synthesizer.js';
import { espeakParams } from './voices.js';

export type EspeakOptions = {
  /** MP3 bitrate of the replies (mono, 22,050 Hz). */
  kbps?: number;
  /** false: synthesise on the calling thread (scripts, tests); the server keeps the default worker thread. */
  thread?: boolean;
  log?: Logger;
  /** A sentence the worker has not answered within this time fails and the worker is restarted (a hung engine). */
  sentenceTimeoutMs?: number;
  /** The worker's entry script (tests wrap it to make it crash). */
  workerUrl?: URL;
  /**
   * true: the worker thread (eSpeak WASM and the MP3 encoder, about 60-100 MB) starts on the first speak() or the first
   * read of `ready`, not at construction. The server starts this way so an idle server holds no speech engine.
   */
  lazy?: boolean;
  /**
   * A worker that has had no sentence to make for this long is stopped, and its memory given back (#14 idle memory);
   * the next line starts a new one (as a lazy start does). 0 or unset: it runs until close().
   */
  idleStopMs?: number;
};

export type SentenceTiming = { synthMs: number; encodeMs: number; seconds: number; bytes: number };

/** Counters since start (made, failed, cancelled sentences; worker restarts) and the sentences waiting or in the worker now. */
export type EspeakStats = { made: number; failed: number; cancelled: number; restarts: number; idleStops: number; queued: number; inFlight: number };

/** Sentences handed to the worker at once: one being made and the next, so the worker never idles between replies. */
const IN_FLIGHT = 2;
const DEFAULT_SENTENCE_TIMEOUT_MS = 30_000;
/** Restart delay after the 2nd, 3rd... crash in a row with no sentence made in between: 0.5 s doubling up to 30 s. */
const restartDelayMs = (crashesInARow: number): number => (crashesInARow <= 1 ? 0 : Math.min(30_000, 500 * 2 ** (crashesInARow - 2)));

/** `quiet` failures (cancelled, closed) are expected and not logged. */
type Result = WorkerReply | { id: number; ok: false; message: string; quiet: true };
type Job = { id: number; text: string; params: EspeakParams; resolve: (r: Result) => void; timer?: NodeJS.Timeout };
/** One speak() call: its sentences not yet handed to the engine. */
type Line = { waiting: Job[]; started?: boolean };

export class EspeakSynthesizer implements Synthesizer {
  readonly name = 'espeak';
  readonly sampleRate = ESPEAK_RATE;
  #ready: Promise<void> | null = null;
  /** Timings of the most recent sentences (for logs and benchmarks), newest last, at most 50. */
  readonly timings: SentenceTiming[] = [];
  readonly #kbps: number;
  readonly #log: Logger | undefined;
  readonly #timeoutMs: number;
  readonly #workerUrl: URL;
  readonly #inline: Promise<EspeakEngine> | null = null;
  #inlineBusy = false;
  #worker: Worker | null = null;
  /** True once the current worker said it is ready, until it exits. */
  #up = false;
  #restartTimer: NodeJS.Timeout | null = null;
  readonly #idleStopMs: number;
  #idleTimer: NodeJS.Timeout | null = null;
  #crashesInARow = 0;
  #closed = false;
  #nextId = 1;
  /** Lines with sentences waiting, in turn: the next sentence comes from the first line, which then goes last. */
  readonly #lines: Line[] = [];
  readonly #inFlight = new Map<number, Job>();
  readonly #counts = { made: 0, failed: 0, cancelled: 0, restarts: 0, idleStops: 0 };

  constructor(opts: EspeakOptions = {}) {
    this.#kbps = opts.kbps ?? 64;
    this.#log = opts.log;
    this.#timeoutMs = opts.sentenceTimeoutMs ?? DEFAULT_SENTENCE_TIMEOUT_MS;
    this.#idleStopMs = opts.idleStopMs ?? 0;
    this.#workerUrl = opts.workerUrl ?? new URL('./espeak-worker.js', import.meta.url);
    if (opts.thread === false) {
      this.#inline = EspeakEngine.create();
      this.#ready = this.#inline.then(async () => warmUpMp3(ESPEAK_RATE));
      this.#ready.catch((err: unknown) => this.#log?.error({ err }, 'espeak failed to start'));
    } else if (!opts.lazy) void this.ready;
  }

  /**
   * Resolves once the engine is loaded and warm (about half a second after the worker starts). Reading it starts the
   * worker when it has not started yet (lazy).
   */
  get ready(): Promise<void> {
    return this.#ready ?? (this.#closed ? Promise.resolve() : this.#startWorker());
  }

  /** True once the engine has been started (a lazy synthesizer has none until it is first needed). */
  get started(): boolean {
    return this.#ready !== null;
  }

  get stats(): EspeakStats {
    const queued = this.#lines.reduce((n, l) => n + l.waiting.length, 0);
    return { ...this.#counts, queued, inFlight: this.#inFlight.size };
  }

  #startWorker(): Promise<void> {
    // execArgv: [] so a parent started through a loader (the tsx CLI, test runners) does not load it twice here.
    const worker = new Worker(this.#workerUrl, { execArgv: [] });
    this.#worker = worker;
    this.#up = false;
    const started = new Promise<void>((resolve, reject) => {
      let up = false;
      worker.on('message', (m: unknown) => {
        if (worker !== this.#worker) return;
        if (!up) {
          up = true;
          this.#up = true;
          resolve();
          this.#pump();
        } else this.#settle(m as WorkerReply);
      });
      worker.on('error', (err) => {
        if (worker === this.#worker) this.#log?.error({ err }, 'espeak worker failed');
      });
      worker.on('exit', (code) => {
        if (!up) reject(new Error(`The speech worker stopped (exit code ${code}) before it was ready.`));
        this.#exited(worker, code, up);
      });
    });
    // `ready` is the first start's promise. A failed start is logged by the worker's handlers; speak() then tries again.
    started.catch(() => undefined);
    this.#ready ??= started;
    return started;
  }

  /** The worker ended: fail what it held; restart it unless closing (or unless it never started: speak() retries). */
  #exited(worker: Worker, code: number, wasUp: boolean): void {
    if (worker !== this.#worker) return; // closed, or replaced after a hang
    this.#worker = null;
    this.#up = false;
    const lost = this.#failInFlight(`The speech worker stopped (exit code ${code}) while making this sentence.`);
    if (!wasUp) {
      const waiting = this.#lines.splice(0).flatMap((l) => l.waiting.splice(0));
      this.#counts.failed += waiting.length;
      for (const job of waiting) job.resolve({ id: job.id, ok: false, message: `The speech worker did not start (exit code ${code}).` });
      this.#log?.error({ code, failed: lost + waiting.length }, 'espeak worker stopped before it was ready');
      return;
    }
    this.#counts.restarts++;
    this.#crashesInARow++;
    const delay = restartDelayMs(this.#crashesInARow);
    this.#log?.error({ code, failed: lost, queued: this.stats.queued, restart_in_ms: delay }, 'espeak worker stopped; restarting it');
    this.#restartTimer = setTimeout(() => {
      this.#restartTimer = null;
      if (!this.#closed && !this.#worker) this.#startWorker().catch(() => undefined);
    }, delay);
    if (this.#lines.length === 0) this.#restartTimer.unref();
  }

  /** Fails every sentence the worker holds (it is gone); returns how many. */
  #failInFlight(message: string): number {
    const jobs = [...this.#inFlight.values()];
    this.#inFlight.clear();
    for (const job of jobs) {
      clearTimeout(job.timer);
      this.#counts.failed++;
      job.resolve({ id: job.id, ok: false, message });
    }
    return jobs.length;
  }

  #settle(reply: WorkerReply): void {
    const job = typeof reply === 'object' && reply !== null ? this.#inFlight.get(reply.id) : undefined;
    if (!job) return;
    this.#inFlight.delete(job.id);
    clearTimeout(job.timer);
    if (reply.ok) {
      this.#counts.made++;
      this.#crashesInARow = 0;
    } else this.#counts.failed++;
    job.resolve(reply);
    this.#pump();
  }

  /** The next sentence to make: from the line whose turn it is, which then waits for its next turn. */
  #next(): Job | null {
    // A line none of whose sentences was handed out comes first: its player waits in silence, while the players of the
    // other lines already hear their first sentence (measured at 20 players: see scripts/bench/voice.ts).
    const fresh = this.#lines.findIndex((l) => !l.started);
    const [line] = this.#lines.splice(Math.max(0, fresh), 1);
    if (!line) return null;
    line.started = true;
    const job = line.waiting.shift() ?? null;
    if (line.waiting.length > 0) this.#lines.push(line);
    return job;
  }

  /** Hands sentences to the engine while it has room. */
  #pump(): void {
    if (this.#closed) return;
    if (this.#inline) {
      this.#pumpInline(this.#inline);
      return;
    }
    const worker = this.#worker;
    if (!worker) {
      if (this.#lines.length > 0 && !this.#restartTimer) this.#startWorker().catch(() => undefined);
      else if (this.#lines.length > 0) this.#restartTimer?.ref();
      return;
    }
    while (this.#up && this.#inFlight.size < IN_FLIGHT) {
      const job = this.#next();
      if (!job) break;
      this.#inFlight.set(job.id, job);
      job.timer = setTimeout(() => this.#hung(worker, job), this.#timeoutMs);
      job.timer.unref();
      worker.postMessage({ id: job.id, text: job.text, params: job.params, kbps: this.#kbps } satisfies WorkerRequest);
    }
    // Referenced only while it has work, so an idle synthesizer does not keep the process alive.
    if (this.#inFlight.size > 0 || this.#lines.length > 0) {
      worker.ref();
      this.#stopIdleTimer();
    } else {
      worker.unref();
      this.#startIdleTimer(worker);
    }
  }

  /** Stops `worker` once it has been idle for idleStopMs (nothing waiting or in flight all that time). */
  #startIdleTimer(worker: Worker): void {
    if (this.#idleStopMs <= 0 || this.#idleTimer) return;
    this.#idleTimer = setTimeout(() => {
      this.#idleTimer = null;
      if (worker !== this.#worker || !this.#up || this.#inFlight.size > 0 || this.#lines.length > 0) return;
      // Detached first, so its exit is neither a crash nor a restart; the next line starts a new worker (#pump).
      this.#worker = null;
      this.#up = false;
      this.#counts.idleStops++;
      this.#log?.debug({ idle_ms: this.#idleStopMs }, 'espeak worker idle: stopped');
      void worker.terminate();
    }, this.#idleStopMs);
    this.#idleTimer.unref();
  }

  #stopIdleTimer(): void {
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    this.#idleTimer = null;
  }

  #hung(worker: Worker, job: Job): void {
    if (worker !== this.#worker || !this.#inFlight.has(job.id)) return;
    this.#log?.error({ timeout_ms: this.#timeoutMs, chars: job.text.length }, 'espeak worker did not answer in time; restarting it');
    // Nothing more is handed to it; the exit handler fails what it held and starts a new one.
    this.#up = false;
    void worker.terminate();
  }

  #pumpInline(engine: Promise<EspeakEngine>): void {
    if (this.#inlineBusy) return;
    const job = this.#next();
    if (!job) return;
    this.#inlineBusy = true;
    this.#inFlight.set(job.id, job);
    const run = async (): Promise<WorkerReply> => {
      await this.ready;
      const e = await engine;
      const t0 = performance.now();
      const pcm = e.synth(job.text, job.params);
      const t1 = performance.now();
      const mp3 = encodeMp3(pcm, ESPEAK_RATE, this.#kbps);
      return { id: job.id, ok: true, mp3, seconds: pcm.length / ESPEAK_RATE, synthMs: t1 - t0, encodeMs: performance.now() - t1 };
    };
    void run().catch((err: unknown): WorkerReply => ({ id: job.id, ok: false, message: err instanceof Error ? err.message : String(err) }))
      .then((r) => {
        this.#inlineBusy = false;
        if (this.#inFlight.has(job.id)) this.#settle(r);
        else this.#pump();
      });
  }

  async *speak(req: SpeakRequest): AsyncGenerator<Uint8Array> {
    const sentences = speechChunks(req.text);
    if (sentences.length === 0) return;
    if (this.#closed) {
      this.#log?.debug('espeak is closed; the line is not spoken');
      return;
    }
    const params = espeakParams(req);
    const line: Line = { waiting: [] };
    const results = sentences.map((text) => new Promise<Result>((resolve) => line.waiting.push({ id: this.#nextId++, text, params, resolve })));
    this.#lines.push(line);
    this.#pump();
    try {
      for (const result of results) {
        const r = await result;
        if (!r.ok) {
          if (!('quiet' in r)) this.#log?.warn({ message: r.message }, 'espeak sentence failed');
          continue;
        }
        this.timings.push({ synthMs: r.synthMs, encodeMs: r.encodeMs, seconds: r.seconds, bytes: r.mp3.length });
        if (this.timings.length > 50) this.timings.shift();
        if (r.mp3.length > 0) yield r.mp3;
      }
    } finally {
      // Left early (the player is gone, or the caller failed): what has not been handed to the engine is dropped.
      if (line.waiting.length > 0) {
        const dropped = line.waiting.splice(0);
        this.#counts.cancelled += dropped.length;
        for (const job of dropped) job.resolve({ id: job.id, ok: false, message: 'Cancelled.', quiet: true });
        const at = this.#lines.indexOf(line);
        if (at >= 0) this.#lines.splice(at, 1);
      }
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#stopIdleTimer();
    if (this.#restartTimer) clearTimeout(this.#restartTimer);
    this.#restartTimer = null;
    // Whatever is waiting or being made ends quietly: closing is not a failure of those lines.
    const jobs = [...this.#lines.splice(0).flatMap((l) => l.waiting.splice(0)), ...this.#inFlight.values()];
    this.#inFlight.clear();
    for (const job of jobs) {
      clearTimeout(job.timer);
      job.resolve({ id: job.id, ok: false, message: 'The speech synthesizer is closed.', quiet: true });
    }
    const w = this.#worker;
    this.#worker = null;
    this.#up = false;
    // Referenced until it is gone: an idle worker is unreferenced, and a process whose last await is this terminate()
    // would otherwise find an empty event loop and exit with code 13 before it settles.
    w?.ref();
    if (w) await w.terminate();
  }
}
