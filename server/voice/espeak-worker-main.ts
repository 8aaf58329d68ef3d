// Runs in a worker thread: eSpeak synthesis and MP3 encoding, one sentence per message, so the server's event loop
// never waits for either. Warmed up before it says it is ready. Requests are served strictly one at a time from a
// queue (the WASM engine is single-threaded and keeps voice and prosody between calls), and every request gets exactly
// one reply: a failure is a reply with ok: false, never an exception that would end the thread.
import { parentPort } from 'node:worker_threads';
import { EspeakEngine, ESPEAK_RATE, type EspeakParams } from './espeak-engine.js';
import { encodeMp3, warmUpMp3 } from './mp3.js';

export type WorkerRequest = { id: number; text: string; params: EspeakParams; kbps: number };
export type WorkerReply =
  | { id: number; ok: true; mp3: Uint8Array; seconds: number; synthMs: number; encodeMs: number }
  | { id: number; ok: false; message: string };
/** The first message of the worker, once it is warm. */
export type WorkerReady = { ready: true };

const port = parentPort;
if (!port) throw new Error('espeak-worker-main must run in a worker thread');

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** A loaded engine, warmed up: first calls are 20-50x slower than later ones. */
async function startEngine(): Promise<EspeakEngine> {
  const e = await EspeakEngine.create();
  for (const [voice, text] of [['en-us', 'The lantern is lit. Come in, quickly!'], ['fr', 'La lanterne est allumée. Entrez vite !']] as const) {
    for (let i = 0; i < 3; i++) e.synth(text, { voice, rate: 175, pitch: 50, range: 50, volume: 100 });
  }
  return e;
}

// null after the engine threw: an aborted or trapped WASM module cannot be trusted, a fresh one serves the next request.
let engine: EspeakEngine | null = await startEngine();
await warmUpMp3(ESPEAK_RATE);

function isRequest(m: unknown): m is WorkerRequest {
  if (typeof m !== 'object' || m === null) return false;
  const r = m as Partial<WorkerRequest>;
  const p = r.params as Partial<EspeakParams> | undefined;
  return typeof r.id === 'number' && typeof r.text === 'string' && typeof r.kbps === 'number' && typeof p === 'object' && p !== null
    && typeof p.voice === 'string' && ['rate', 'pitch', 'range', 'volume'].every((k) => typeof p[k as keyof EspeakParams] === 'number');
}

async function handle(req: WorkerRequest): Promise<WorkerReply> {
  let pcm: Int16Array;
  const t0 = performance.now();
  try {
    engine ??= await startEngine();
    pcm = engine.synth(req.text, req.params);
  } catch (err) {
    engine = null;
    return { id: req.id, ok: false, message: `eSpeak failed: ${message(err)}` };
  }
  const t1 = performance.now();
  try {
    const mp3 = encodeMp3(pcm, ESPEAK_RATE, req.kbps);
    return { id: req.id, ok: true, mp3, seconds: pcm.length / ESPEAK_RATE, synthMs: t1 - t0, encodeMs: performance.now() - t1 };
  } catch (err) {
    return { id: req.id, ok: false, message: `MP3 encoding failed: ${message(err)}` };
  }
}

function reply(r: WorkerReply): void {
  try {
    if (r.ok) port?.postMessage(r, [r.mp3.buffer as ArrayBuffer]);
    else port?.postMessage(r);
  } catch (err) {
    port?.postMessage({ id: r.id, ok: false, message: `The reply could not be sent: ${message(err)}` } satisfies WorkerReply);
  }
}

const queue: unknown[] = [];
let draining = false;

/** Serves the queue one request at a time, in order; an await inside a request never lets the next one start. */
async function drain(): Promise<void> {
  if (draining) return;
  draining = true;
  try {
    for (let m = queue.shift(); m !== undefined; m = queue.shift()) {
      if (isRequest(m)) reply(await handle(m));
      else {
        const id = typeof m === 'object' && m !== null && typeof (m as { id?: unknown }).id === 'number' ? (m as { id: number }).id : null;
        if (id !== null) reply({ id, ok: false, message: 'Malformed speech request.' });
      }
    }
  } finally {
    draining = false;
  }
}

port.on('message', (m: unknown) => {
  queue.push(m);
  void drain();
});
port.postMessage({ ready: true } satisfies WorkerReady);
