// Speech-to-text behind an interface. A USER_INPUT with a transcription runs no recogniser (pass-through); audio
// without one goes to the configured recogniser.
import type { PlayLanguage } from '../../engine/schema/enums.js';

export type AudioInput = {
  bytes: Uint8Array;
  format: 'mp3' | 'wav' | 'pcm16';
  sample_rate?: number;
  channels?: number;
  bits_per_sample?: number;
};

export type TranscribeRequest = {
  audio: AudioInput;
  language: PlayLanguage;
  /** Whole sentences players are expected to say now (the moment's `say`): grammar recognisers listen for these. */
  sentences?: readonly string[];
  /** Phrases expected at this moment (answers, names, branch words, battle verbs), for grammars and prompts. */
  vocabulary: readonly string[];
  /** Words that are never answers (the story's decoys): grammars include them so stray speech lands on them. */
  decoys?: readonly string[];
};

/** A failure; `notCaught` when the recogniser heard nothing usable (a miss, not a fault to report). */
export type TranscribeResult = { ok: true; text: string; recogniser: string } | { ok: false; message: string; notCaught?: true };

export interface Transcriber {
  readonly name: string;
  transcribe(req: TranscribeRequest): Promise<TranscribeResult>;
}

/** No recogniser configured: audio cannot be understood, and the player is told so clearly. */
export class NoTranscriber implements Transcriber {
  readonly name = 'none';

  transcribe(): Promise<TranscribeResult> {
    return Promise.resolve({
      ok: false,
      message: 'This server cannot recognise speech yet: send a transcription with the audio, or type your answer.',
    });
  }
}
