// What recognisers need: any player audio (MP3, WAV, raw PCM16) as 16 kHz mono 16-bit samples. Problems come back
// as values with a sentence a player can read; nothing here throws to callers.
import { decodeMp3, tooLongMessage } from './mp3.js';
import type { AudioInput } from './transcriber.js';
import { parseWav, type Planar } from './wav.js';

export const STT_RATE = 16000;
export const DEFAULT_MAX_SECONDS = 30;

export type AudioErrorCode = 'audio/empty' | 'audio/corrupt' | 'audio/unsupported' | 'audio/too_long';
export type AudioError = { ok: false; code: AudioErrorCode; message: string };
/** 16 kHz mono speech, ready for a recogniser. */
export type Speech = { ok: true; samples: Int16Array; sampleRate: typeof STT_RATE; seconds: number };

const fail = (code: AudioErrorCode, message: string): AudioError => ({ ok: false, code, message });
const tooLong = (max: number): AudioError => fail('audio/too_long', tooLongMessage(max));

/** Decodes, mixes to mono and resamples to 16 kHz. Longer than `maxSeconds` is refused before any decoding (MP3: from its frame headers) or resampling. */
export async function decodeSpeech(input: AudioInput, opts: { maxSeconds?: number } = {}): Promise<Speech | AudioError> {
  const max = opts.maxSeconds ?? DEFAULT_MAX_SECONDS;
  try {
    if (input.bytes.length === 0) return fail('audio/empty', 'The audio is empty.');
    let planar: Planar;
    switch (input.format) {
      case 'mp3': {
        // Refused from its headers when too long, else decoded in the decoder's thread up to the limit.
        const r = await decodeMp3(input.bytes, max);
        if (!r.ok) return r;
        planar = r.audio;
        break;
      }
      case 'wav': {
        const r = parseWav(input.bytes);
        if (!r.ok) return r;
        planar = r.audio;
        break;
      }
      case 'pcm16': {
        const r = pcm16(input, max);
        if (!r.ok) return r;
        planar = r.audio;
        break;
      }
    }
    const frames = planar.channels[0]?.length ?? 0;
    if (frames === 0) return fail('audio/empty', 'The audio is empty.');
    const seconds = frames / planar.sampleRate;
    if (seconds > max) return tooLong(max);
    const samples = toInt16(resample(mixToMono(planar.channels), planar.sampleRate, STT_RATE));
    return { ok: true, samples, sampleRate: STT_RATE, seconds };
  } catch {
    return fail('audio/corrupt', `The audio could not be decoded as ${input.format === 'pcm16' ? 'PCM' : input.format.toUpperCase()}.`);
  }
}

/** Raw little-endian PCM as the native app sends it: 16000 Hz, 16 bit, 1 channel unless the header says otherwise. */
function pcm16(input: AudioInput, max: number): { ok: true; audio: Planar } | AudioError {
  const rate = input.sample_rate ?? STT_RATE;
  const channels = input.channels ?? 1;
  const bits = input.bits_per_sample ?? 16;
  if (bits !== 16) return fail('audio/unsupported', `Raw PCM audio must be 16-bit, not ${bits}-bit.`);
  if (!Number.isInteger(rate) || rate < 4000 || rate > 192_000) return fail('audio/unsupported', `A sample rate of ${rate} Hz is not supported.`);
  if (!Number.isInteger(channels) || channels < 1 || channels > 8) return fail('audio/unsupported', `${channels} channels are not supported.`);
  const frames = Math.floor(input.bytes.length / (2 * channels));
  if (frames / rate > max) return tooLong(max);
  const view = new DataView(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength);
  const out = Array.from({ length: channels }, () => new Float32Array(frames));
  for (let f = 0; f < frames; f++) {
    for (let c = 0; c < channels; c++) (out[c] as Float32Array)[f] = view.getInt16((f * channels + c) * 2, true) / 32768;
  }
  return { ok: true, audio: { channels: out, sampleRate: rate } };
}

export function mixToMono(channels: readonly Float32Array[]): Float32Array {
  const first = channels[0];
  if (!first) return new Float32Array(0);
  if (channels.length === 1) return first;
  const out = new Float32Array(first.length);
  for (const ch of channels) for (let i = 0; i < out.length; i++) out[i] = (out[i] ?? 0) + (ch[i] ?? 0);
  const k = 1 / channels.length;
  for (let i = 0; i < out.length; i++) out[i] = (out[i] ?? 0) * k;
  return out;
}

export function toInt16(x: Float32Array): Int16Array {
  const out = new Int16Array(x.length);
  for (let i = 0; i < x.length; i++) {
    const v = Math.round((x[i] ?? 0) * 32768);
    out[i] = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
  }
  return out;
}

export function toFloat32(x: Int16Array): Float32Array {
  const out = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) out[i] = (x[i] ?? 0) / 32768;
  return out;
}

// Windowed-sinc resampling: a Blackman-windowed low-pass at the lower of the two Nyquist frequencies (so
// downsampling does not alias), read from a finely tabulated kernel with linear interpolation between entries.
const ZEROS = 8; // zero crossings each side of the kernel centre
const STEPS = 256; // table entries per zero crossing
const KERNEL = (() => {
  const n = ZEROS * STEPS;
  const k = new Float32Array(n + 2);
  for (let i = 0; i <= n; i++) {
    const t = i / STEPS;
    const sinc = i === 0 ? 1 : Math.sin(Math.PI * t) / (Math.PI * t);
    const w = 0.42 + 0.5 * Math.cos((Math.PI * t) / ZEROS) + 0.08 * Math.cos((2 * Math.PI * t) / ZEROS);
    k[i] = sinc * w;
  }
  return k;
})();

function kernel(t: number): number {
  const pos = Math.abs(t) * STEPS;
  const i = Math.floor(pos);
  if (i >= ZEROS * STEPS) return 0;
  const frac = pos - i;
  return (KERNEL[i] ?? 0) * (1 - frac) + (KERNEL[i + 1] ?? 0) * frac;
}

export function resample(x: Float32Array, from: number, to: number): Float32Array {
  if (from === to || x.length === 0) return x;
  const ratio = to / from;
  const cutoff = Math.min(1, ratio); // of the input's Nyquist frequency
  const outLen = Math.max(1, Math.round(x.length * ratio));
  const out = new Float32Array(outLen);
  const half = ZEROS / cutoff; // kernel half-width in input samples
  for (let j = 0; j < outLen; j++) {
    const centre = j / ratio;
    const lo = Math.max(0, Math.ceil(centre - half));
    const hi = Math.min(x.length - 1, Math.floor(centre + half));
    let acc = 0;
    for (let i = lo; i <= hi; i++) acc += (x[i] ?? 0) * kernel((centre - i) * cutoff);
    out[j] = acc * cutoff;
  }
  return out;
}
