// Synthetic players: eSpeak NG voices (accent, variant, rate, pitch) with optional seeded noise (white, pink or brown)
// and room reverberation, speaking a line as a player would; and non-speech sounds (coughs, breaths, hum, clicks) that
// a microphone picks up. Used to make the audio fixtures (scripts/make-audio-fixtures.ts), by `looptale story
// lint-speech` and by the voice-understanding bench (scripts/bench/voice-understanding.ts).
import type { PlayLanguage } from '../../engine/schema/enums.js';
import { toFloat32 } from './audio.js';
import { ESPEAK_LANGUAGE_VOICE, ESPEAK_RATE, type EspeakEngine } from './espeak-engine.js';
import { stableHash } from './voices.js';

export type NoiseColour = 'white' | 'pink' | 'brown';

export type SpeechProfile = {
  id: string;
  variant: string;
  rate: number;
  pitch: number;
  /** Signal-to-noise ratio of added noise, in dB; null for clean audio. */
  snr: number | null;
  /** Colour of the noise (white by default). */
  noise?: NoiseColour;
  /** eSpeak language voice, for accents ('en' British, 'en-gb-scotland', 'en-029', 'en-us-nyc'...); the play
   *  language's voice by default. */
  accent?: string;
  /** Room reverberation time (RT60) in seconds; none by default. */
  reverb?: number;
};

/** The three English voices of the committed fixtures: clean, female with noise at 20 dB, fast and low. */
export const LINT_PROFILES: readonly SpeechProfile[] = [
  { id: 'm3-175-50', variant: 'm3', rate: 175, pitch: 50, snr: null },
  { id: 'f2-150-70-noise20', variant: 'f2', rate: 150, pitch: 70, snr: 20 },
  { id: 'm7-200-35', variant: 'm7', rate: 200, pitch: 35, snr: null },
];

/** Silence before and after the speech, in seconds (browsers' fake microphones lose about 50 ms at the start). */
export const PAD_SECONDS = 0.5;

/** mulberry32: uniform numbers in [0, 1) that depend only on the seed. */
export function uniformSource(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Noise that depends only on the seed: sum of four uniforms, close enough to Gaussian, unit variance. */
export function noiseSource(seed: number): () => number {
  const next = uniformSource(seed);
  return () => (next() + next() + next() + next() - 2) * Math.sqrt(3);
}

/** Coloured noise of unit variance: white, pink (Paul Kellet's filter, -3 dB per octave) or brown (-6 dB per octave). */
export function colouredNoise(seed: number, colour: NoiseColour, length: number): Float32Array {
  const white = noiseSource(seed);
  const out = new Float32Array(length);
  let b0 = 0, b1 = 0, b2 = 0, b3 = 0, b4 = 0, b5 = 0, b6 = 0, brown = 0;
  for (let i = 0; i < length; i++) {
    const w = white();
    if (colour === 'white') out[i] = w;
    else if (colour === 'pink') {
      b0 = 0.99886 * b0 + w * 0.0555179; b1 = 0.99332 * b1 + w * 0.0750759; b2 = 0.969 * b2 + w * 0.153852;
      b3 = 0.8665 * b3 + w * 0.3104856; b4 = 0.55 * b4 + w * 0.5329522; b5 = -0.7616 * b5 - w * 0.016898;
      out[i] = b0 + b1 + b2 + b3 + b4 + b5 + b6 + w * 0.5362;
      b6 = w * 0.115926;
    } else {
      brown = 0.98 * brown + w * 0.2;
      out[i] = brown;
    }
  }
  let energy = 0;
  for (const v of out) energy += v * v;
  const scale = 1 / Math.sqrt(energy / Math.max(1, length) || 1);
  for (let i = 0; i < length; i++) out[i] = (out[i] ?? 0) * scale;
  return out;
}

/** A small room: the dry signal plus a seeded, exponentially decaying noise tail (RT60 in seconds) at -6 dB. */
export function reverberate(signal: Float32Array, rt60: number, seed: number, rate: number): Float32Array {
  const n = Math.round(rt60 * rate);
  const rnd = noiseSource(seed);
  const ir = new Float32Array(n);
  const decay = Math.log(1000) / Math.max(1, n);
  let energy = 0;
  for (let i = 0; i < n; i++) {
    ir[i] = rnd() * Math.exp(-decay * i);
    energy += (ir[i] ?? 0) ** 2;
  }
  const gain = 0.5 / Math.sqrt(energy || 1);
  const out = new Float32Array(signal.length + n);
  out.set(signal);
  // Sparse convolution: every 4th tap is enough for a diffuse tail and keeps this fast.
  for (let k = 1; k < n; k += 4) {
    const h = (ir[k] ?? 0) * gain * 2;
    if (h === 0) continue;
    for (let i = 0; i < signal.length; i++) out[i + k] = (out[i + k] ?? 0) + h * (signal[i] ?? 0);
  }
  let peak = 0;
  for (const v of out) peak = Math.max(peak, Math.abs(v));
  if (peak > 0.99) for (let i = 0; i < out.length; i++) out[i] = (out[i] ?? 0) * (0.99 / peak);
  return out;
}

/** Adds noise at `snr` dB relative to the level of the voiced samples of `speech`. */
function addNoise(out: Float32Array, speech: Float32Array, snr: number, colour: NoiseColour, seed: number): void {
  let energy = 0;
  let voiced = 0;
  for (const v of speech) {
    if (Math.abs(v) > 0.01) {
      energy += v * v;
      voiced++;
    }
  }
  const level = Math.sqrt(energy / Math.max(1, voiced)) / 10 ** (snr / 20);
  if (colour === 'white') {
    // The committed fixtures were made with this exact sequence: keep it.
    const noise = noiseSource(seed);
    for (let i = 0; i < out.length; i++) out[i] = (out[i] ?? 0) + level * noise();
    return;
  }
  const noise = colouredNoise(seed, colour, out.length);
  for (let i = 0; i < out.length; i++) out[i] = (out[i] ?? 0) + level * (noise[i] ?? 0);
}

/** The line spoken in this voice at 22,050 Hz, padded with silence, noise seeded by `seedName`. */
export function speakAsPlayer(engine: EspeakEngine, text: string, language: PlayLanguage, p: SpeechProfile, seedName: string): Float32Array {
  const voice = `${p.accent ?? ESPEAK_LANGUAGE_VOICE[language]}+${p.variant}`;
  let speech = toFloat32(engine.synth(text, { voice, rate: p.rate, pitch: p.pitch, range: 50, volume: 100 }));
  if (p.reverb) speech = reverberate(speech, p.reverb, stableHash(`${seedName}#room`), ESPEAK_RATE);
  const pad = Math.round(PAD_SECONDS * ESPEAK_RATE);
  const out = new Float32Array(speech.length + 2 * pad);
  out.set(speech, pad);
  if (p.snr !== null) addNoise(out, speech, p.snr, p.noise ?? 'white', stableHash(seedName));
  return out;
}

export const SOUND_KINDS = ['silence', 'room-tone', 'white-noise', 'pink-noise', 'cough', 'breath', 'hum', 'clicks'] as const;
export type SoundKind = (typeof SOUND_KINDS)[number];

/** A non-speech sound of about `seconds` at `rate` Hz, padded like speech, seeded by `seed`. */
export function nonSpeech(kind: SoundKind, seed: number, rate = ESPEAK_RATE, seconds = 1.2): Float32Array {
  const n = Math.round(seconds * rate);
  const pad = Math.round(PAD_SECONDS * rate);
  const out = new Float32Array(n + 2 * pad);
  const rnd = uniformSource(seed);
  const put = (i: number, v: number): void => {
    out[pad + i] = (out[pad + i] ?? 0) + v;
  };
  switch (kind) {
    case 'silence':
      break;
    case 'room-tone': {
      const noise = colouredNoise(seed, 'brown', out.length);
      for (let i = 0; i < out.length; i++) out[i] = 0.003 * (noise[i] ?? 0);
      break;
    }
    case 'white-noise':
    case 'pink-noise': {
      const noise = colouredNoise(seed, kind === 'white-noise' ? 'white' : 'pink', n);
      for (let i = 0; i < n; i++) put(i, 0.08 * (noise[i] ?? 0));
      break;
    }
    case 'cough':
    case 'breath': {
      // Bursts of low-passed noise with a fast attack (cough) or a slow swell (breath).
      const bursts = kind === 'cough' ? 2 + Math.floor(rnd() * 2) : 1;
      const noise = colouredNoise(seed, kind === 'cough' ? 'pink' : 'brown', n);
      for (let b = 0; b < bursts; b++) {
        const start = Math.floor((b / bursts) * n);
        const len = Math.floor((kind === 'cough' ? 0.18 + 0.1 * rnd() : 0.9) * rate);
        for (let i = 0; i < len && start + i < n; i++) {
          const t = i / len;
          const env = kind === 'cough' ? Math.min(1, t * 30) * Math.exp(-5 * t) : Math.sin(Math.PI * t);
          put(start + i, (kind === 'cough' ? 0.5 : 0.12) * env * (noise[start + i] ?? 0));
        }
      }
      break;
    }
    case 'hum':
      for (let i = 0; i < n; i++) {
        const t = i / rate;
        put(i, 0.1 * (Math.sin(2 * Math.PI * 120 * t) + 0.5 * Math.sin(2 * Math.PI * 240 * t) + 0.25 * Math.sin(2 * Math.PI * 360 * t)));
      }
      break;
    case 'clicks': {
      const count = 6 + Math.floor(rnd() * 6);
      for (let c = 0; c < count; c++) {
        const at = Math.floor(rnd() * (n - rate * 0.01));
        for (let i = 0; i < rate * 0.004; i++) put(at + i, 0.6 * (rnd() * 2 - 1) * Math.exp(-i / (rate * 0.001)));
      }
      break;
    }
  }
  return out;
}
