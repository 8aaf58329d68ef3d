// The native wrapper's messages (docs/native-bridge.md), validated where they enter the page: the wrapper calls
// `window.looptaleNativeEvent(json)` with one of these; anything else is logged and ignored.
import { z } from 'zod';
import type { NativeVoiceState } from '../../../../engine/client/voice-loop.js';

/** Native PCM defaults (game spec §4). */
export const NATIVE_PCM = { sampleRate: 16000, bitsPerSample: 16, channels: 1 } as const;

export const NativeEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('RECORDING_STARTED') }),
  z.object({
    type: z.literal('RECORDING_COMPLETE'),
    /** The recording, base64. May be empty when `transcription` carries the words. */
    audioData: z.string().default(''),
    /** pcm (raw little-endian 16-bit), wav or mp3. */
    format: z.enum(['pcm', 'pcm16', 'wav', 'mp3']).default('pcm'),
    sampleRate: z.number().int().min(8000).max(48000).default(NATIVE_PCM.sampleRate),
    bitsPerSample: z.literal(16).default(NATIVE_PCM.bitsPerSample),
    channels: z.union([z.literal(1), z.literal(2)]).default(NATIVE_PCM.channels),
    /** What the wrapper's own recogniser heard; the server transcribes the audio when it is absent or blank. */
    transcription: z.string().max(2000).optional(),
  }),
  z.object({ type: z.literal('RECORDING_ERROR'), message: z.string().optional() }),
  /** The microphone's level in dBFS (0 is full scale; -40 dB is the browser's silence threshold, RMS 0.01). */
  z.object({ type: z.literal('AUDIO_LEVEL'), level: z.number() }),
]);
export type NativeEvent = z.infer<typeof NativeEvent>;

/** Messages from the page to the wrapper. */
export type PageMessage =
  | { readonly type: 'GAME_STATE'; readonly state: 'idle' | 'processing' | 'game-speaking' }
  | { readonly type: 'START_RECORDING' }
  | { readonly type: 'STOP_RECORDING' }
  /** Drop the recording in progress: no RECORDING_COMPLETE is wanted (a new moment began). */
  | { readonly type: 'CANCEL_RECORDING' };

export const NATIVE_STATE: Record<NativeVoiceState, 'idle' | 'processing' | 'game-speaking'> = {
  IDLE: 'idle', PROCESSING: 'processing', GAME_SPEAKING: 'game-speaking',
};

/** Player speech, for barge-in: the level the browser's silence rule starts at (RMS 0.01 = -40 dBFS). */
export const SPEECH_LEVEL_DB = -40;
