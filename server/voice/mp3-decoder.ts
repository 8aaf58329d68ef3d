// The main-thread side of mp3-decode-worker.js: one worker thread decodes players' MP3, one stream at a time, so a
// decode never blocks the event loop that answers every other player. Started on first use; it keeps the process alive
// only while a decode is out, and a worker that died is started again for the next decode.
import { Worker } from 'node:worker_threads';

export type DecodeReply = { ok: true; channels: Float32Array[]; sampleRate: number } | { ok: false; tooLong: boolean };
type WorkerMessage = ({ id: number } & DecodeReply) | { ready: true };

export class Mp3Decoder {
  #worker: Worker | null = null;
  #nextId = 1;
  readonly #pending = new Map<number, { resolve: (r: DecodeReply) => void; reject: (e: Error) => void }>();

  #start(): Worker {
    // execArgv: [] so a parent started through a loader (tsx, test runners) does not load it again in the thread.
    const worker = new Worker(new URL('./mp3-decode-worker.js', import.meta.url), { execArgv: [] });
    worker.unref();
    worker.on('message', (m: WorkerMessage) => {
      if ('ready' in m) return;
      const p = this.#pending.get(m.id);
      if (!p) return;
      this.#pending.delete(m.id);
      if (this.#pending.size === 0) worker.unref();
      const { id: _id, ...reply } = m;
      p.resolve(reply);
    });
    const fail = (e: Error): void => {
      if (this.#worker === worker) this.#worker = null;
      for (const p of this.#pending.values()) p.reject(e);
      this.#pending.clear();
    };
    worker.on('error', (e) => fail(new Error(`the MP3 decoder failed: ${e.message}`)));
    worker.on('exit', (code) => fail(new Error(`the MP3 decoder stopped (exit code ${code})`)));
    return worker;
  }

  /** Decodes `bytes` (copied to the worker), stopping once more than `maxSeconds` are decoded. */
  decode(bytes: Uint8Array, maxSeconds: number): Promise<DecodeReply> {
    this.#worker ??= this.#start();
    const worker = this.#worker;
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, bytes, maxSeconds });
    });
  }

  async close(): Promise<void> {
    const w = this.#worker;
    this.#worker = null;
    // Referenced until it is gone (unreferenced while idle: an empty event loop would end the process mid-await).
    w?.ref();
    await w?.terminate();
  }
}

let shared: Mp3Decoder | null = null;

/** The process's decoder (one worker thread for every caller). */
export function mp3Decoder(): Mp3Decoder {
  shared ??= new Mp3Decoder();
  return shared;
}
