// Text-to-speech behind an interface. With no synthesizer, no AUDIO_ANSWER is sent (never placeholder audio).
import type { PlayLanguage } from '../../engine/schema/enums.js';

export type SpeakRequest = {
  text: string;
  language: PlayLanguage;
  voice?: { variant?: string; pitch?: number; rate?: number; name?: string };
  emotion: string;
  intensity: number;
};

export interface Synthesizer {
  readonly name: string;
  /** Yields MP3 chunks, one per sentence, the first as soon as it is ready. */
  speak(req: SpeakRequest): AsyncIterable<Uint8Array>;
}
