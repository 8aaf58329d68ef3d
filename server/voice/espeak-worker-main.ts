// Runs in a worker thread: eSpeak synthesis and MP3 encoding, one sentence per message, so the server's event loop
// never waits for either. Warmed up before it says it is ready.
import { parentPort } from 'node:worker_threads';
import { EspeakEngine, ESPEAK_RATE, type EspeakParams } from './espeak-engine.js';
import { encodeMp3, warmUpMp3 } from './mp3.js';

export type WorkerRequest = { id: number; text: string; params: EspeakParams; kbps: number };
export type WorkerReply =
  | { id: number; ok: true; mp3: Uint8Array; seconds: number; synthMs: number; encodeMs: number }
  | { id: number; ok: false; message: string };

const port = parentPort;
if (!port) throw new Error('espeak-worker-main must run in a worker thread');

const engine = await EspeakEngine.create();
// First calls are 20-50x slower than later ones: speak a few lines in both languages before taking requests.
for (const [voice, text] of [['en-us', 'The lantern is lit. Come in, quickly!'], ['fr', 'La lanterne est allumée. Entrez vite !']] as const) {
  for (let i = 0; i < 3; i++) engine.synth(text, { voice, rate: 175, pitch: 50, range: 50, volume: 100 });
}
await warmUpMp3(ESPEAK_RATE);

port.on('message', (req: WorkerRequest) => {
  try {
    const t0 = performance.now();
    const pcm = engine.synth(req.text, req.params);
    const t1 = performance.now();
    const mp3 = encodeMp3(pcm, ESPEAK_RATE, req.kbps);
    const t2 = performance.now();
    const reply: WorkerReply = { id: req.id, ok: true, mp3, seconds: pcm.length / ESPEAK_RATE, synthMs: t1 - t0, encodeMs: t2 - t1 };
    port.postMessage(reply, [mp3.buffer as ArrayBuffer]);
  } catch (err) {
    const reply: WorkerReply = { id: req.id, ok: false, message: err instanceof Error ? err.message : String(err) };
    port.postMessage(reply);
  }
});
port.postMessage({ ready: true });
