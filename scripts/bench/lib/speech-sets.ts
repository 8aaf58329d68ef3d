// The voice-understanding bench's sets: what players say (story sentences, paraphrases, non-answers, non-speech
// sounds, Debian's human recordings) and who says it (synthetic voices), kept in two disjoint halves: `tuning` (voices
// and texts the system may be tuned on) and `held_out` (voices, speeds, accents, noise and texts it never sees while
// being tuned). The fixture clips' voices are all on the tuning side.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resample, STT_RATE, toInt16 } from '../../../server/voice/audio.js';
import { EspeakEngine, ESPEAK_RATE } from '../../../server/voice/espeak-engine.js';
import { nonSpeech, SOUND_KINDS, speakAsPlayer, type SpeechProfile } from '../../../server/voice/synthetic-speech.js';
import { stableHash } from '../../../server/voice/voices.js';
import { encodeWav } from '../../../server/voice/wav.js';

export type SetName = 'tuning' | 'held_out';

/** Tuning voices: the fixture clips' three voices and one more of the fixture generator's (all American, white noise). */
export const TUNING_VOICES: readonly SpeechProfile[] = [
  { id: 'm3-175-50', variant: 'm3', rate: 175, pitch: 50, snr: null },
  { id: 'f2-150-70-noise20', variant: 'f2', rate: 150, pitch: 70, snr: 20 },
  { id: 'm7-200-35', variant: 'm7', rate: 200, pitch: 35, snr: null },
  { id: 'f4-185-60', variant: 'f4', rate: 185, pitch: 60, snr: null },
];

/** Held-out voices: variants, speeds, accents, noise colours and a room the fixtures and the tuning set never use. */
export const HELD_OUT_VOICES: readonly SpeechProfile[] = [
  { id: 'nyc-m5-125-45-pink15', accent: 'en-us-nyc', variant: 'm5', rate: 125, pitch: 45, snr: 15, noise: 'pink' },
  { id: 'gb-f3-160-65', accent: 'en', variant: 'f3', rate: 160, pitch: 65, snr: null },
  { id: 'us-m6-195-30-brown12', accent: 'en-us', variant: 'm6', rate: 195, pitch: 30, snr: 12, noise: 'brown' },
  { id: 'us-f1-145-80-room', accent: 'en-us', variant: 'f1', rate: 145, pitch: 80, snr: 30, noise: 'pink', reverb: 0.35 },
];

export const VOICES: Record<SetName, readonly SpeechProfile[]> = { tuning: TUNING_VOICES, held_out: HELD_OUT_VOICES };

export type ParaphraseDecision = { moment: string; stage?: string; means: string; tuning: string[]; held_out: string[] };
export type ParaphraseFile = { story: string; decisions: ParaphraseDecision[] };

export function loadParaphrases(dir: string, story: string): ParaphraseFile {
  return JSON.parse(readFileSync(join(dir, `${story}.paraphrases.json`), 'utf8')) as ParaphraseFile;
}

export function loadNonAnswers(dir: string): Record<SetName, string[]> {
  const f = JSON.parse(readFileSync(join(dir, 'non-answers.json'), 'utf8')) as Record<SetName, string[]>;
  return { tuning: f.tuning, held_out: f.held_out };
}

/** Spoken clips, made once per (text, voice) and kept in memory as 16 kHz WAV. */
export class ClipMaker {
  readonly #engines = new Map<string, Promise<EspeakEngine>>();
  readonly #clips = new Map<string, Uint8Array>();

  async speak(text: string, voice: SpeechProfile): Promise<Uint8Array> {
    const key = `${voice.id}\0${text}`;
    const hit = this.#clips.get(key);
    if (hit) return hit;
    // One fresh engine per voice (espeak-engine.ts): a clip is the same whatever was said before it, run after run.
    let engine = this.#engines.get(voice.id);
    if (!engine) {
      engine = EspeakEngine.create({ fresh: true });
      this.#engines.set(voice.id, engine);
    }
    const signal = speakAsPlayer(await engine, text, 'english', voice, `bench.${voice.id}.${text}`);
    const wav = encodeWav(toInt16(resample(signal, ESPEAK_RATE, STT_RATE)), STT_RATE);
    this.#clips.set(key, wav);
    return wav;
  }

  sound(kind: (typeof SOUND_KINDS)[number], set: SetName): Uint8Array {
    const signal = nonSpeech(kind, stableHash(`bench.${set}.${kind}`), STT_RATE);
    return encodeWav(toInt16(signal), STT_RATE);
  }
}

export const SOUNDS = SOUND_KINDS;

export type HumanClip = { id: string; file: string; format: 'wav' | 'pcm16'; transcript: string | null };

export const TESTDATA_DIR = '/usr/share/pocketsphinx/test/data';

/** Debian's pocketsphinx-testdata recordings of people (16 kHz): cards, an audiobook, commands, digits. Transcripts
 *  from the package (cards.transcription, librivox/transcription, goforward.gram, tidigits.lsn); two clips have none. */
export function humanClips(dir = TESTDATA_DIR): HumanClip[] {
  if (!existsSync(dir)) return [];
  const out: HumanClip[] = [];
  const lines = (file: string): [string, string][] => readFileSync(join(dir, file), 'utf8').split('\n').flatMap((l) => {
    const m = /^(?:<s>\s*)?(.*?)\s*(?:<\/s>)?\s*\(([^)]+)\)\s*$/.exec(l.trim());
    return m?.[1] !== undefined && m[2] !== undefined ? [[m[2], m[1].trim()] as [string, string]] : [];
  });
  for (const [id, text] of lines('cards/cards.transcription')) out.push({ id: `cards-${id}`, file: join(dir, 'cards', `${id}.wav`), format: 'wav', transcript: text });
  for (const [id, text] of lines('librivox/transcription')) out.push({ id: `librivox-${id.slice(-4)}`, file: join(dir, 'librivox', `${id}.wav`), format: 'wav', transcript: text });
  out.push({ id: 'goforward', file: join(dir, 'goforward.raw'), format: 'pcm16', transcript: 'go forward ten meters' });
  out.push({ id: 'tidigits-2934z', file: join(dir, 'tidigits', 'dhd.2934z.raw'), format: 'pcm16', transcript: 'two nine three four zero' });
  out.push({ id: 'numbers', file: join(dir, 'numbers.raw'), format: 'pcm16', transcript: null });
  out.push({ id: 'something', file: join(dir, 'something.raw'), format: 'pcm16', transcript: null });
  return out.filter((c) => existsSync(c.file));
}

/** A human clip as 16 kHz WAV bytes (raw files are 16 kHz 16-bit mono, little-endian). */
export function humanWav(c: HumanClip): Uint8Array {
  const bytes = readFileSync(c.file);
  if (c.format === 'wav') return bytes;
  const samples = new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + (bytes.byteLength & ~1)));
  return encodeWav(samples, STT_RATE);
}
