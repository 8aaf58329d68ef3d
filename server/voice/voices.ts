// Who sounds like what: a character's eSpeak voice (from the story, or a stable pick from its id), and how emotion
// bends it. Pure functions, shared by the eSpeak synthesizer and the fixture script.
import type { EspeakParams } from './espeak-engine.js';
import { ESPEAK_LANGUAGE_VOICE } from './espeak-engine.js';
import type { SpeakRequest } from './synthesizer.js';

/** The variants a default voice is picked from (eSpeak's numbered male and female variants). */
export const DEFAULT_VARIANTS = ['m1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7', 'f1', 'f2', 'f3', 'f4', 'f5'] as const;
const VARIANT = /^[A-Za-z0-9_-]{1,24}$/;

/** A 32-bit FNV-1a hash: the same key always gives the same voice, on every machine. */
export function stableHash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export type BaseVoice = { variant: string; pitch: number; rate: number };

/** The story's voice where given; missing fields come from the speaker key (or the narrator's defaults). */
export function baseVoice(voice: SpeakRequest['voice'], speaker: string | undefined): BaseVoice {
  const h = speaker ? stableHash(speaker) : null;
  const variant = voice?.variant && VARIANT.test(voice.variant)
    ? voice.variant
    : h === null ? 'm3' : (DEFAULT_VARIANTS[h % DEFAULT_VARIANTS.length] ?? 'm3');
  const pitch = voice?.pitch ?? (h === null ? 50 : 35 + ((h >>> 8) % 31));
  const rate = voice?.rate ?? (h === null ? 175 : 150 + ((h >>> 16) % 41));
  return { variant, pitch, rate };
}

type Shift = { rate: number; pitch: number; range: number; volume: number };

/** The change at full intensity (5): rate and volume as factors, pitch and range as steps on eSpeak's 0-99 scale. */
const EMOTIONS: Readonly<Record<string, Shift>> = {
  normal: { rate: 1, pitch: 0, range: 0, volume: 1 },
  happiness: { rate: 1.12, pitch: 10, range: 25, volume: 1.1 },
  sadness: { rate: 0.78, pitch: -12, range: -25, volume: 0.8 },
  anger: { rate: 1.2, pitch: -4, range: 30, volume: 1.45 },
  fear: { rate: 1.15, pitch: 20, range: 15, volume: 0.95 },
  disgust: { rate: 0.88, pitch: -8, range: 10, volume: 1.05 },
  surprise: { rate: 1.05, pitch: 16, range: 40, volume: 1.15 },
};

/** eSpeak parameters for one request: the character's voice, then the emotion scaled by intensity (1 to 5). */
export function espeakParams(req: Pick<SpeakRequest, 'language' | 'voice' | 'speaker' | 'emotion' | 'intensity'>): EspeakParams {
  const v = baseVoice(req.voice, req.speaker);
  const e = EMOTIONS[req.emotion] ?? EMOTIONS.normal ?? { rate: 1, pitch: 0, range: 0, volume: 1 };
  const k = Math.min(5, Math.max(1, Math.round(req.intensity || 1))) / 5;
  return {
    voice: `${ESPEAK_LANGUAGE_VOICE[req.language]}+${v.variant}`,
    rate: Math.round(v.rate * (1 + (e.rate - 1) * k)),
    pitch: Math.round(v.pitch + e.pitch * k),
    range: Math.round(50 + e.range * k),
    volume: Math.round(100 * (1 + (e.volume - 1) * k)),
  };
}
