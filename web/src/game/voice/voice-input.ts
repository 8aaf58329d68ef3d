// What the session's voice layer needs from the session, and what it is given: the recording effects of the shared
// voice loop (start_recording, stop_recording, notify_native). Two implementations: the browser's microphone
// (browser-voice.ts) and the native wrapper's bridge (native-voice.ts).
import type { AudioInput } from '../../../../engine/client/game-screen/controller.js';
import type { PlayEffect, PlayEvent, PlayModel } from '../../../../engine/client/game-screen/model.js';

export type RecordingEffect = Extract<PlayEffect, { type: 'start_recording' | 'stop_recording' | 'notify_native' }>;

export interface VoiceHost {
  readonly model: PlayModel;
  dispatch(event: PlayEvent): void;
  /** Sends the recorded answer (a USER_INPUT with the audio; `transcription` when the recorder already has the words). */
  sendAudio(audio: AudioInput, transcription?: string): void;
  setMicError(text: string | null): void;
}

export interface VoiceInput {
  readonly kind: 'browser' | 'native';
  /** `byClick`: the effect comes from the player's tap (STOP sends; a stop for any other reason, a new moment, drops). */
  effect(e: RecordingEffect, byClick: boolean): void;
  /** Starts what the first recording needs (the encoder's worker) ahead of time. */
  warm(): void;
  /** Every model change (the browser listens for barge-in while a reply plays). */
  observe(model: PlayModel): void;
  dispose(): void;
}
