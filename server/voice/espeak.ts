// Offline text-to-speech: eSpeak NG (WASM, from npm) in one long-lived worker thread that also encodes MP3. Each
// character gets its own voice; emotion changes rate, pitch, range and volume; one MP3 chunk per sentence, the first
// yielded as soon as it is encoded while the worker goes on with the next.
import { Worker } from 'node:worker_threads';
import type { Logger } from '../log.js';
import { EspeakEngine, ESPEAK_RATE } from './espeak-engine.js';
import type { WorkerReply, WorkerRequest } from './espeak-worker-main.js';
import { encodeMp3, warmUpMp3 } from './mp3.js';
import { splitSentences } from './sentences.js';
import type { SpeakRequest, Synthesizer } from './synthesizer.js';
import { espeakParams } from './voices.js';

export type EspeakOptions = {
  /** MP3 bitrate of the replies (mono, 22,050 Hz). */
  kbps?: number;
  /** false: synthesise on the calling thread (scripts, tests); the server keeps the default worker thread. */
  thread?: boolean;
  log?: Logger;
};

export type SentenceTiming = { synthMs: number; encodeMs: number; seconds: number; bytes: number };

type Pending = { resolve: (r: WorkerReply) => void };

export class EspeakSynthesizer implements Synthesizer {
  readonly name = 'espeak';
  readonly sampleRate = ESPEAK_RATE;
  /** Resolves once the engine is loaded and warm (about half a second after construction). */
  readonly ready: Promise<void>;
  /** Timings of the most recent sentences (for logs and benchmarks), newest last, at most 50. */
  readonly timings: SentenceTiming[] = [];
  readonly #kbps: number;
  readonly #log: Logger | undefined;
  #worker: Worker | null = null;
  #workerReady: Promise<void> | null = null;
  #inline: Promise<EspeakEngine> | null = null;
  #nextId = 1;
  readonly #pending = new Map<number, Pending>();

  constructor(opts: EspeakOptions = {}) {
    this.#kbps = opts.kbps ?? 64;
    this.#log = opts.log;
    if (opts.thread === false) {
      this.#inline = EspeakEngine.create();
      this.ready = this.#inline.then(async () => warmUpMp3(ESPEAK_RATE));
    } else {
      this.ready = this.#startWorker();
    }
    this.ready.catch((err: unknown) => this.#log?.error({ err }, 'espeak failed to start'));
  }

  #startWorker(): Promise<void> {
    // execArgv: [] so a parent started through a loader (the tsx CLI, test runners) does not load it twice here.
    const worker = new Worker(new URL('./espeak-worker.js', import.meta.url), { execArgv: [] });
    this.#worker = worker;
    this.#workerReady = new Promise<void>((resolve, reject) => {
      worker.once('message', () => {
        worker.on('message', (reply: WorkerReply) => this.#settle(reply));
        worker.unref();
        resolve();
      });
      worker.once('error', reject);
    });
    worker.on('error', (err) => this.#log?.error({ err }, 'espeak worker failed'));
    worker.on('exit', (code) => {
      if (this.#worker === worker) {
        this.#worker = null;
        this.#workerReady = null;
      }
      for (const [id, p] of this.#pending) p.resolve({ id, ok: false, message: `The speech worker stopped (exit code ${code}).` });
      this.#pending.clear();
    });
    return this.#workerReady;
  }

  #settle(reply: WorkerReply): void {
    const p = this.#pending.get(reply.id);
    if (!p) return;
    this.#pending.delete(reply.id);
    if (this.#pending.size === 0) this.#worker?.unref();
    p.resolve(reply);
  }

  /** Starts one sentence; the returned promise settles when its MP3 is ready. */
  #submit(text: string, req: SpeakRequest): Promise<WorkerReply> {
    const id = this.#nextId++;
    const msg: WorkerRequest = { id, text, params: espeakParams(req), kbps: this.#kbps };
    if (this.#inline) {
      const inline = this.#inline;
      return this.ready.then(async () => {
        const engine = await inline;
        const t0 = performance.now();
        const pcm = engine.synth(text, msg.params);
        const t1 = performance.now();
        const mp3 = encodeMp3(pcm, ESPEAK_RATE, this.#kbps);
        return { id, ok: true, mp3, seconds: pcm.length / ESPEAK_RATE, synthMs: t1 - t0, encodeMs: performance.now() - t1 } as const;
      });
    }
    return new Promise<WorkerReply>((resolve) => {
      const ready = this.#workerReady ?? this.#startWorker();
      ready.then(() => {
        const worker = this.#worker;
        if (!worker) return resolve({ id, ok: false, message: 'The speech worker is not running.' });
        this.#pending.set(id, { resolve });
        worker.ref();
        worker.postMessage(msg);
      }, (err: unknown) => resolve({ id, ok: false, message: `The speech worker did not start: ${String(err)}` }));
    });
  }

  async *speak(req: SpeakRequest): AsyncGenerator<Uint8Array> {
    const sentences = splitSentences(req.text);
    // Every sentence is queued at once: the worker makes the next while the caller sends the previous.
    const jobs = sentences.map((s) => this.#submit(s, req));
    for (const job of jobs) {
      const r = await job;
      if (!r.ok) {
        this.#log?.warn({ message: r.message }, 'espeak sentence failed');
        continue;
      }
      this.timings.push({ synthMs: r.synthMs, encodeMs: r.encodeMs, seconds: r.seconds, bytes: r.mp3.length });
      if (this.timings.length > 50) this.timings.shift();
      if (r.mp3.length > 0) yield r.mp3;
    }
  }

  async close(): Promise<void> {
    const w = this.#worker;
    this.#worker = null;
    this.#workerReady = null;
    if (w) await w.terminate();
  }
}
