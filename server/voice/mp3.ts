// MP3 in and out: mpg123 (WASM) decodes what players record, LAME itself (3.100 compiled to WASM, wasm-media-encoders)
// encodes what characters say. It replaced lamejs (a JavaScript port of an older LAME): the same format, bitrate and
// frame count (the bytes differ: another LAME version), so every client that played the old replies plays these, in
// about a quarter of the CPU time (3 s at 22.05 kHz, 64 kbps: 8.4 ms instead of 36.5 ms here), which matters when 20
// players are answered at once. The encoder is compiled on first need (about 20 MB and 200 ms): loadMp3Encoder(), or
// warmUpMp3() which loads it, must have finished before encodeMp3; a process that only decodes never pays for it.
// LAME-encoded audio decodes 1,105 samples late (encoder delay, at any rate): harmless for recognition, but
// comparisons of decoded audio with its source must align first.
import { createMp3Encoder } from 'wasm-media-encoders';
import { mp3Decoder } from './mp3-decoder.js';
import { mp3Duration } from './mp3-duration.js';
import type { Planar } from './wav.js';

export type Mp3Result = { ok: true; audio: Planar } | { ok: false; code: 'audio/corrupt' | 'audio/too_long'; message: string };

/** The error a player's too long audio gets (any format). */
export const tooLongMessage = (max: number): string => `The audio is longer than ${max} seconds.`;

export const MP3_ENCODER_DELAY = 1105;
/** Sample rates LAME encodes without resampling. */
export const MP3_RATES = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000] as const;

/** True when the bytes start with an ID3 tag or an MPEG audio frame sync. */
export function looksLikeMp3(bytes: Uint8Array): boolean {
  if (bytes.length >= 3 && bytes[0] === 0x49 && bytes[1] === 0x44 && bytes[2] === 0x33) return true;
  return bytes.length >= 2 && bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0;
}

const CORRUPT: Mp3Result = { ok: false, code: 'audio/corrupt', message: 'The audio could not be decoded as MP3.' };

/**
 * Decodes an MP3 in the decoder's worker thread (mp3-decoder.ts). Longer than `maxSeconds` is refused: from its frame
 * headers before anything is decoded, and otherwise as soon as the decoder has passed it.
 */
export async function decodeMp3(bytes: Uint8Array, maxSeconds = Infinity): Promise<Mp3Result> {
  if (mp3Duration(bytes, maxSeconds).overLimit) return { ok: false, code: 'audio/too_long', message: tooLongMessage(maxSeconds) };
  const r = await mp3Decoder().decode(bytes, maxSeconds).catch(() => null);
  if (r === null || (!r.ok && !r.tooLong)) return CORRUPT;
  if (!r.ok) return { ok: false, code: 'audio/too_long', message: tooLongMessage(maxSeconds) };
  return { ok: true, audio: { channels: r.channels, sampleRate: r.sampleRate } };
}

type Encoder = Awaited<ReturnType<typeof createMp3Encoder>>;
type Kbps = Parameters<Encoder['configure']>[0] extends infer P ? P extends { bitrate?: infer B } ? NonNullable<B> : never : never;
type OutRate = NonNullable<Parameters<Encoder['configure']>[0]['outputSampleRate']>;

/** One encoder per thread (it is reconfigured for each call; calls never interleave: they are synchronous). */
let encoder: Encoder | null = null;
let loading: Promise<Encoder> | null = null;

/** Compiles the thread's encoder once (later calls return at once). */
export async function loadMp3Encoder(): Promise<void> {
  loading ??= createMp3Encoder().then((e) => (encoder = e));
  await loading;
}

/** Encodes mono 16-bit PCM to MP3 (constant bitrate). `sampleRate` must be one of MP3_RATES. Needs loadMp3Encoder(). */
export function encodeMp3(samples: Int16Array, sampleRate: number, kbps = 64): Uint8Array {
  if (encoder === null) throw new Error('encodeMp3: the MP3 encoder is not loaded (await loadMp3Encoder() first)');
  // The output rate is the input rate: left alone, LAME may resample low bitrates to a lower rate.
  encoder.configure({ sampleRate, channels: 1, bitrate: kbps as Kbps, outputSampleRate: sampleRate as OutRate });
  const pcm = new Float32Array(samples.length);
  for (let i = 0; i < samples.length; i++) pcm[i] = (samples[i] ?? 0) / 32768;
  // The encoder owns the buffers it returns: copy each before the next call.
  const body = encoder.encode([pcm]).slice();
  const tail = encoder.finalize();
  const mp3 = new Uint8Array(body.length + tail.length);
  mp3.set(body, 0);
  mp3.set(tail, body.length);
  return mp3;
}

/** First encodes are several times slower than later ones (JIT, WASM compile): pay that at start-up. */
export async function warmUpMp3(sampleRate = 22050): Promise<void> {
  await loadMp3Encoder();
  const tone = new Int16Array(sampleRate);
  for (let i = 0; i < tone.length; i++) tone[i] = Math.round(4000 * Math.sin((2 * Math.PI * 220 * i) / sampleRate));
  for (let i = 0; i < 3; i++) encodeMp3(tone, sampleRate);
}

/**
 * Warms the decoder only (a process that decodes players' MP3 but never encodes: no encoder is loaded). Twenty silent
 * MPEG-1 Layer III frames (128 kbps, 44.1 kHz stereo: a header and zeros), made here rather than encoded.
 */
export async function warmUpMp3Decoder(): Promise<void> {
  const frame = 417;
  const bytes = new Uint8Array(frame * 20);
  for (let i = 0; i < 20; i++) bytes.set([0xff, 0xfb, 0x90, 0x64], i * frame);
  for (let i = 0; i < 3; i++) await decodeMp3(bytes);
}
