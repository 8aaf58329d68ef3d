// Synthetic players: eSpeak NG voices (variant, rate, pitch) with optional seeded white noise, speaking a line as a
// player would. Used to make the audio fixtures (scripts/make-audio-fixtures.ts) and by `looptale story lint-speech`.
import type { PlayLanguage } from '../../engine/schema/enums.js';
import { toFloat32 } from './audio.js';
import { ESPEAK_LANGUAGE_VOICE, ESPEAK_RATE, type EspeakEngine } from './espeak-engine.js';
import { stableHash } from './voices.js';

export type SpeechProfile = {
  id: string;
  variant: string;
  rate: number;
  pitch: number;
  /** Signal-to-noise ratio of added white noise, in dB; null for clean audio. */
  snr: number | null;
};

/** The three English voices of the committed fixtures: clean, female with noise at 20 dB, fast and low. */
export const LINT_PROFILES: readonly SpeechProfile[] = [
  { id: 'm3-175-50', variant: 'm3', rate: 175, pitch: 50, snr: null },
  { id: 'f2-150-70-noise20', variant: 'f2', rate: 150, pitch: 70, snr: 20 },
  { id: 'm7-200-35', variant: 'm7', rate: 200, pitch: 35, snr: null },
];

/** Silence before and after the speech, in seconds (browsers' fake microphones lose about 50 ms at the start). */
export const PAD_SECONDS = 0.5;

/** mulberry32: noise that depends only on the seed. */
export function noiseSource(seed: number): () => number {
  let s = seed >>> 0;
  const next = (): number => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  // Sum of four uniforms: close enough to Gaussian, unit variance.
  return () => (next() + next() + next() + next() - 2) * Math.sqrt(3);
}

/** The line spoken in this voice at 22,050 Hz, padded with silence, noise seeded by `seedName`. */
export function speakAsPlayer(engine: EspeakEngine, text: string, language: PlayLanguage, p: SpeechProfile, seedName: string): Float32Array {
  const voice = `${ESPEAK_LANGUAGE_VOICE[language]}+${p.variant}`;
  const speech = toFloat32(engine.synth(text, { voice, rate: p.rate, pitch: p.pitch, range: 50, volume: 100 }));
  const pad = Math.round(PAD_SECONDS * ESPEAK_RATE);
  const out = new Float32Array(speech.length + 2 * pad);
  out.set(speech, pad);
  if (p.snr !== null) {
    let energy = 0;
    let voiced = 0;
    for (const v of speech) {
      if (Math.abs(v) > 0.01) {
        energy += v * v;
        voiced++;
      }
    }
    const level = Math.sqrt(energy / Math.max(1, voiced)) / 10 ** (p.snr / 20);
    const noise = noiseSource(stableHash(seedName));
    for (let i = 0; i < out.length; i++) out[i] = (out[i] ?? 0) + level * noise();
  }
  return out;
}
