// MP3 in and out: mpg123 (WASM) decodes what players record, lamejs encodes what characters say.
// LAME-encoded audio decodes 1,105 samples late (encoder delay, at any rate): harmless for recognition, but
// comparisons of decoded audio with its source must align first.
import { Mp3Encoder } from '@breezystack/lamejs';
import { MPEGDecoder } from 'mpg123-decoder';
import type { Planar } from './wav.js';

export type Mp3Result = { ok: true; audio: Planar } | { ok: false; code: 'audio/corrupt'; message: string };

export const MP3_ENCODER_DELAY = 1105;
/** Sample rates lamejs encodes without resampling. */
export const MP3_RATES = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000] as const;

let decoder: Promise<MPEGDecoder> | null = null;
let queue: Promise<unknown> = Promise.resolve();

function getDecoder(): Promise<MPEGDecoder> {
  decoder ??= (async () => {
    const d = new MPEGDecoder();
    await d.ready;
    return d;
  })();
  return decoder;
}

/** True when the bytes start with an ID3 tag or an MPEG audio frame sync. */
export function looksLikeMp3(bytes: Uint8Array): boolean {
  if (bytes.length >= 3 && bytes[0] === 0x49 && bytes[1] === 0x44 && bytes[2] === 0x33) return true;
  return bytes.length >= 2 && bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0;
}

/** Decodes a whole MP3 (one shared decoder, one stream at a time). */
export function decodeMp3(bytes: Uint8Array): Promise<Mp3Result> {
  const run = queue.then(async (): Promise<Mp3Result> => {
    const d = await getDecoder();
    await d.reset();
    const r = d.decode(bytes);
    if (r.samplesDecoded === 0 || r.channelData.length === 0) {
      return { ok: false, code: 'audio/corrupt', message: 'The audio could not be decoded as MP3.' };
    }
    // The decoder reuses its buffers: copy before the next stream.
    return { ok: true, audio: { channels: r.channelData.map((c) => c.slice(0, r.samplesDecoded)), sampleRate: r.sampleRate } };
  });
  queue = run.catch(() => undefined);
  return run.catch((): Mp3Result => ({ ok: false, code: 'audio/corrupt', message: 'The audio could not be decoded as MP3.' }));
}

/** Encodes mono 16-bit PCM to MP3 (constant bitrate). `sampleRate` must be one of MP3_RATES. */
export function encodeMp3(samples: Int16Array, sampleRate: number, kbps = 64): Uint8Array {
  const enc = new Mp3Encoder(1, sampleRate, kbps);
  const parts: Uint8Array[] = [];
  const block = 1152;
  for (let i = 0; i < samples.length; i += block) {
    const out = enc.encodeBuffer(samples.subarray(i, i + block));
    if (out.length > 0) parts.push(out.slice());
  }
  const tail = enc.flush();
  if (tail.length > 0) parts.push(tail.slice());
  const total = parts.reduce((n, p) => n + p.length, 0);
  const mp3 = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    mp3.set(p, at);
    at += p.length;
  }
  return mp3;
}

/** First encodes and decodes are several times slower than later ones (JIT, WASM compile): pay that at start-up. */
export async function warmUpMp3(sampleRate = 22050): Promise<void> {
  const tone = new Int16Array(sampleRate);
  for (let i = 0; i < tone.length; i++) tone[i] = Math.round(4000 * Math.sin((2 * Math.PI * 220 * i) / sampleRate));
  for (let i = 0; i < 3; i++) await decodeMp3(encodeMp3(tone, sampleRate));
}
