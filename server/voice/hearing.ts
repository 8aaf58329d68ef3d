// The port for hearing: a player's audio and the moment's stage in; what was heard out (the words, the recogniser's
// confidence and alternatives when it gives them), or a miss and why, or a failure to report. The turn pipeline and
// `looptale story lint-speech` hear through it, whichever plugin the configuration chose (plugins.ts):
//   - offline English: SpeechUnderstanding (understanding.ts: the stage's grammar and language model, verification,
//     the brain's check);
//   - an OpenAI-compatible /audio/transcriptions (http-stt.ts), which returns free text: with the scripted brain, the
//     same check that the words decide something here, so small talk is a miss, never a fallback reply that costs an
//     interaction.
// The native wrapper's own transcription needs no plugin: its words come with the turn and are not heard again.
import { decidesHeard } from '../../engine/brain/speakable.js';
import { momentStage, type MomentStage } from '../../engine/moments/stage.js';
import type { GameState } from '../../engine/run/state.js';
import type { PlayLanguage } from '../../engine/schema/enums.js';
import type { Story } from '../../engine/story/format.js';
import { momentSpeech } from '../game/vocabulary.js';
import type { SpeechUnderstanding } from './understanding.js';
import type { AudioInput, Transcriber } from './transcriber.js';

/** Where the player speaks: the story, the state, the language played and the current moment's stage. */
export type HearingStage = { story: Story; state: GameState; language: PlayLanguage; moment: MomentStage };

export function hearingStage(story: Story, state: GameState, language: PlayLanguage): HearingStage {
  return { story, state, language, moment: momentStage(story, state) };
}

export type HearingRequest = { audio: AudioInput; stage: HearingStage };

/** A miss's reason is engine/schema/game-output.ts NotCaught.reason; a failure is not a miss but a fault to report. */
export type Heard =
  | {
    ok: true;
    words: string;
    /** The recogniser's own confidence in the words, 0..1; null when it gives none (pocketsphinx, transcriptions). */
    confidence: number | null;
    /** Other words the recogniser found likely, best first; empty when it gives none. */
    alternatives: string[];
    recogniser: string;
  }
  | { ok: false; miss: true; reason: string; heard: string | null; recogniser: string }
  | { ok: false; miss: false; code: 'stt/failed'; message: string };

export interface Hearing {
  readonly name: string;
  hear(req: HearingRequest): Promise<Heard>;
  /** Gets ready for a stage before the player speaks there (builds its model); never fails. */
  prepare?(stage: HearingStage): Promise<void>;
}

const words = (text: string, recogniser: string): Heard => ({ ok: true, words: text, confidence: null, alternatives: [], recogniser });

/** Offline English understanding behind the port. */
export function understandingHearing(u: SpeechUnderstanding): Hearing {
  return {
    name: u.name,
    async hear({ audio, stage }) {
      const r = await u.understand({ story: stage.story, state: stage.state, language: stage.language, audio });
      if (r.ok) return words(r.text, u.name);
      if (r.reason === 'unavailable' || r.reason === 'bad_audio') return { ok: false, miss: false, code: 'stt/failed', message: r.message };
      return { ok: false, miss: true, reason: r.reason, heard: r.heard, recogniser: u.name };
    },
    prepare: (stage) => u.prepare(stage.story, stage.state, stage.language),
  };
}

/** A transcriber's words behind the port; with `gate`, words that decide nothing at this stage are a miss. */
export function transcriberHearing(t: Transcriber, opts: { gate: boolean }): Hearing {
  return {
    name: t.name,
    async hear({ audio, stage }) {
      const r = await t.transcribe({ audio, language: stage.language, ...momentSpeech(stage.story, stage.state, stage.language) });
      if (!r.ok) return r.notCaught ? { ok: false, miss: true, reason: 'not_heard', heard: null, recogniser: t.name } : { ok: false, miss: false, code: 'stt/failed', message: r.message };
      if (opts.gate && !decidesHeard(stage.story, stage.state, r.text)) return { ok: false, miss: true, reason: 'no_decision', heard: r.text, recogniser: t.name };
      return words(r.text, t.name);
    },
  };
}

/** Each language to its hearing; a language without one gets a clear message. */
export function routingHearing(byLanguage: Partial<Record<PlayLanguage, Hearing>>, messages: Record<PlayLanguage, string>): Hearing {
  const names = [...new Set(Object.values(byLanguage).map((l) => l.name))];
  return {
    name: names.length ? names.join('+') : 'none',
    hear(req) {
      const l = byLanguage[req.stage.language];
      return l ? l.hear(req) : Promise.resolve({ ok: false, miss: false, code: 'stt/failed', message: messages[req.stage.language] });
    },
    async prepare(stage) {
      await byLanguage[stage.language]?.prepare?.(stage);
    },
  };
}
