// The MP3 encoder, off the main thread (game spec §4: MP3 at 128 kbps mono): LAME compiled to WASM
// (wasm-media-encoders), fetched once from the app's own assets. Messages: mp3-protocol.ts.
import { createEncoder, type WasmMediaEncoder } from 'wasm-media-encoders';
import wasmUrl from 'wasm-media-encoders/wasm/mp3?url';
import { type FromEncoder, MP3_KBPS, type ToEncoder } from './mp3-protocol.js';

type Mp3Rate = 8000 | 11025 | 12000 | 16000 | 22050 | 24000 | 32000 | 44100 | 48000;
type Scope = { postMessage(m: FromEncoder, transfer?: Transferable[]): void; onmessage: ((e: MessageEvent<ToEncoder>) => void) | null };
const scope = self as unknown as Scope;

let encoder: Promise<WasmMediaEncoder<'audio/mpeg'>> | null = null;
let chunks: Uint8Array[] = [];
let blocks = 0;
let encodeMs = 0;

function load(): Promise<WasmMediaEncoder<'audio/mpeg'>> {
  encoder ??= createEncoder('audio/mpeg', wasmUrl);
  return encoder;
}

// Messages are handled one after another (each waits for the previous), so blocks keep their order.
let queue: Promise<void> = Promise.resolve();

async function handle(m: ToEncoder): Promise<void> {
  const enc = await load();
  const t0 = performance.now();
  switch (m.type) {
    case 'begin':
      enc.configure({
        sampleRate: m.inputRate, channels: 1, bitrate: MP3_KBPS,
        ...(m.outputRate !== m.inputRate ? { outputSampleRate: m.outputRate as Mp3Rate } : {}),
      });
      chunks = [];
      blocks = 0;
      encodeMs = 0;
      scope.postMessage({ type: 'ready' });
      return;
    case 'block':
      // The encoder owns its output buffer: copy it.
      chunks.push(enc.encode([m.samples]).slice());
      blocks += 1;
      encodeMs += performance.now() - t0;
      return;
    case 'finish': {
      if (blocks > 0) chunks.push(enc.finalize().slice());
      encodeMs += performance.now() - t0;
      const size = chunks.reduce((n, c) => n + c.length, 0);
      const bytes = new Uint8Array(size);
      let at = 0;
      for (const c of chunks) {
        bytes.set(c, at);
        at += c.length;
      }
      chunks = [];
      scope.postMessage({ type: 'done', bytes, encodeMs }, [bytes.buffer]);
      return;
    }
  }
}

scope.onmessage = (e) => {
  queue = queue.then(() => handle(e.data)).catch((err: unknown) => {
    scope.postMessage({ type: 'error', message: err instanceof Error ? err.message : String(err) });
  });
};
