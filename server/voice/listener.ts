// What the turn pipeline asks about a player's audio: the words to play, or a miss. Offline English goes through
// SpeechUnderstanding (understanding.ts: a language model of the stage, verification, the brain's check). Any other
// recogniser (an OpenAI-compatible /audio/transcriptions, which returns free text) goes through its transcription and,
// with the scripted brain, the same check that the words decide something here: small talk is a miss, never a
// fallback reply that costs an interaction.
import { decidesHeard } from '../../engine/brain/speakable.js';
import type { GameState } from '../../engine/run/state.js';
import type { PlayLanguage } from '../../engine/schema/enums.js';
import type { Story } from '../../engine/story/format.js';
import { momentSpeech } from '../game/vocabulary.js';
import type { SpeechUnderstanding } from './understanding.js';
import type { AudioInput, Transcriber } from './transcriber.js';

export type HearRequest = { story: Story; state: GameState; language: PlayLanguage; audio: AudioInput };

/** A miss's reason (engine/schema/game-output.ts NotCaught.reason); `error` is not a miss but a failure to report. */
export type Heard =
  | { ok: true; text: string; recogniser: string }
  | { ok: false; miss: true; reason: string; heard: string | null; recogniser: string }
  | { ok: false; miss: false; code: 'stt/failed'; message: string };

export interface Listener {
  readonly name: string;
  hear(req: HearRequest): Promise<Heard>;
  /** Gets ready for a stage before the player speaks there (builds its model); never fails. */
  prepare?(story: Story, state: GameState, language: PlayLanguage): Promise<void>;
}

export function understandingListener(u: SpeechUnderstanding): Listener {
  return {
    name: u.name,
    async hear(req) {
      const r = await u.understand(req);
      if (r.ok) return { ok: true, text: r.text, recogniser: u.name };
      if (r.reason === 'unavailable' || r.reason === 'bad_audio') return { ok: false, miss: false, code: 'stt/failed', message: r.message };
      return { ok: false, miss: true, reason: r.reason, heard: r.heard, recogniser: u.name };
    },
    prepare: (story, state, language) => u.prepare(story, state, language),
  };
}

/** A transcriber's words; with `gate`, words that decide nothing at this stage are a miss. */
export function transcriberListener(t: Transcriber, opts: { gate: boolean }): Listener {
  return {
    name: t.name,
    async hear(req) {
      const r = await t.transcribe({ audio: req.audio, language: req.language, ...momentSpeech(req.story, req.state, req.language) });
      if (!r.ok) return r.notCaught ? { ok: false, miss: true, reason: 'not_heard', heard: null, recogniser: t.name } : { ok: false, miss: false, code: 'stt/failed', message: r.message };
      if (opts.gate && !decidesHeard(req.story, req.state, r.text)) return { ok: false, miss: true, reason: 'no_decision', heard: r.text, recogniser: t.name };
      return { ok: true, text: r.text, recogniser: t.name };
    },
  };
}

/** Each language to its listener; a language without one gets a clear message. */
export function routingListener(byLanguage: Partial<Record<PlayLanguage, Listener>>, messages: Record<PlayLanguage, string>): Listener {
  const names = [...new Set(Object.values(byLanguage).map((l) => l.name))];
  return {
    name: names.length ? names.join('+') : 'none',
    hear(req) {
      const l = byLanguage[req.language];
      return l ? l.hear(req) : Promise.resolve({ ok: false, miss: false, code: 'stt/failed', message: messages[req.language] });
    },
    async prepare(story, state, language) {
      await byLanguage[language]?.prepare?.(story, state, language);
    },
  };
}
