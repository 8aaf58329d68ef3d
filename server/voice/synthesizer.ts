// Text-to-speech behind an interface. With no synthesizer, no AUDIO_ANSWER is sent (never placeholder audio).
import type { PlayLanguage } from '../../engine/schema/enums.js';

export type SpeakRequest = {
  text: string;
  language: PlayLanguage;
  /** The story's voice for the character (eSpeak variant, pitch 0-99, rate in words per minute; a provider voice name). */
  voice?: { variant?: string; pitch?: number; rate?: number; name?: string };
  /** A stable key for the speaker (the blueprint character id): picks a distinct default voice when `voice` is absent. */
  speaker?: string;
  emotion: string;
  intensity: number;
};

export interface Synthesizer {
  readonly name: string;
  /** Yields MP3 chunks, one per sentence, the first as soon as it is ready. */
  speak(req: SpeakRequest): AsyncIterable<Uint8Array>;
}
