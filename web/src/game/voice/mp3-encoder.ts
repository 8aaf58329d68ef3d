// The page's side of the MP3 worker: one worker for the page's life (the WASM compiles once), one recording at a
// time. `begin` at the start of a recording, `push` each kept block, `finish` for the MP3 bytes.
import type { FromEncoder, ToEncoder } from './mp3-protocol.js';

export class Mp3Encoder {
  #worker: Worker | null = null;
  #waiting: { resolve: (bytes: Uint8Array) => void; reject: (e: Error) => void } | null = null;

  #get(): Worker {
    if (this.#worker) return this.#worker;
    const w = new Worker(new URL('./mp3-worker.ts', import.meta.url), { type: 'module', name: 'looptale-mp3' });
    w.onmessage = (e: MessageEvent<FromEncoder>) => {
      const m = e.data;
      if (m.type === 'done') this.#settle(null, m.bytes);
      else if (m.type === 'error') this.#settle(new Error(`MP3 encoding failed: ${m.message}`), null);
    };
    w.onerror = (e) => this.#settle(new Error(`MP3 encoder worker failed: ${e.message}`), null);
    this.#worker = w;
    return w;
  }

  #settle(error: Error | null, bytes: Uint8Array | null): void {
    const waiting = this.#waiting;
    this.#waiting = null;
    if (!waiting) return;
    if (error) waiting.reject(error);
    else waiting.resolve(bytes ?? new Uint8Array());
  }

  #post(m: ToEncoder, transfer: Transferable[] = []): void {
    this.#get().postMessage(m, transfer);
  }

  /** Starts the worker and its WASM ahead of the first recording. */
  warm(): void {
    this.#get();
  }

  begin(outputRate: number, inputRate: number): void {
    this.#settle(new Error('a new recording began'), null);
    this.#post({ type: 'begin', inputRate, outputRate });
  }

  push(samples: Float32Array): void {
    this.#post({ type: 'block', samples }, [samples.buffer]);
  }

  finish(): Promise<Uint8Array> {
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
      this.#post({ type: 'finish' });
    });
  }

  close(): void {
    this.#settle(new Error('closed'), null);
    this.#worker?.terminate();
    this.#worker = null;
  }
}
