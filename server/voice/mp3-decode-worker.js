// Worker-thread side of decodeMp3 (mp3.ts): mpg123 (WASM) decodes players' MP3 here, never on the server's event loop.
// Plain JavaScript: Node starts it as is, without the TypeScript loader (a few lines; tsx would cost memory and time).
// Messages { id, bytes, maxSeconds } are served one at a time, in order; each gets one reply:
//   { id, ok: true, channels: Float32Array[], sampleRate } | { id, ok: false, tooLong: boolean }.
// Decoding goes in chunks and stops as soon as more than maxSeconds are out: a stream whose headers did not tell its
// length (free format, resynchronised junk) still costs at most the limit.
import { parentPort } from 'node:worker_threads';
import { MPEGDecoder } from 'mpg123-decoder';

const port = parentPort;
if (!port) throw new Error('mp3-decode-worker.js must run in a worker thread');

const CHUNK = 16 * 1024;
const decoder = new MPEGDecoder();
await decoder.ready;

function join(parts, total, channel) {
  const out = new Float32Array(total);
  let o = 0;
  for (const p of parts) {
    out.set(p[channel] ?? p[0], o);
    o += p[0].length;
  }
  return out;
}

async function decode(bytes, maxSeconds) {
  await decoder.reset();
  const parts = [];
  let total = 0;
  let sampleRate = 0;
  let channels = 0;
  for (let o = 0; o < bytes.length; o += CHUNK) {
    const r = decoder.decode(bytes.subarray(o, o + CHUNK));
    if (r.samplesDecoded === 0 || r.channelData.length === 0) continue;
    sampleRate ||= r.sampleRate;
    channels = Math.max(channels, r.channelData.length);
    // The decoder reuses its buffers: copy before the next chunk.
    parts.push(r.channelData.map((c) => c.slice(0, r.samplesDecoded)));
    total += r.samplesDecoded;
    if (total / sampleRate > maxSeconds) return { ok: false, tooLong: true };
  }
  if (total === 0) return { ok: false, tooLong: false };
  return { ok: true, channels: Array.from({ length: channels }, (_, c) => join(parts, total, c)), sampleRate };
}

let chain = Promise.resolve();
port.on('message', (m) => {
  chain = chain.then(async () => {
    let reply;
    try {
      reply = { id: m.id, ...(await decode(m.bytes, m.maxSeconds)) };
    } catch {
      reply = { id: m.id, ok: false, tooLong: false };
    }
    port.postMessage(reply, reply.ok ? reply.channels.map((c) => c.buffer) : []);
  });
});
port.postMessage({ ready: true });
