// The JSON part of a USER_INPUT frame: the prepared moment data a client sends (game spec §7), plus the recording
// parameters of the audio that may follow it (native PCM defaults: 16000 Hz, 16 bit, mono; game spec §4).
import { z } from 'zod';
import { PlayLanguage } from '../schema/enums.js';
import { UuidV4 } from '../schema/ids.js';

export const MAX_TRANSCRIPTION_CHARS = 2000;
export const MAX_SELECTED_CHARACTERS = 12;
export const MIN_SAMPLE_RATE = 8000;
export const MAX_SAMPLE_RATE = 48000;

export const AUDIO_FORMATS = ['mp3', 'wav', 'pcm16'] as const;
export const AudioFormat = z.enum(AUDIO_FORMATS);
export type AudioFormat = z.infer<typeof AudioFormat>;

// z.object strips unknown keys: an older or newer client may send extra fields without being refused.
export const UserInput = z.object({
  /** Client-chosen id of this input; the server echoes it in AUDIO_ANSWER and GAME_OUTPUT. */
  input_id: UuidV4,
  player_story_id: UuidV4,
  is_starting_dialogue: z.boolean(),
  /** Text the native wrapper already transcribed; the server transcribes the audio otherwise. */
  transcription: z.string().max(MAX_TRANSCRIPTION_CHARS).optional(),
  audio_format: AudioFormat.optional(),
  sample_rate: z.number().int().min(MIN_SAMPLE_RATE).max(MAX_SAMPLE_RATE).optional(),
  channels: z.union([z.literal(1), z.literal(2)]).optional(),
  bits_per_sample: z.literal(16).optional(),
  language: PlayLanguage.optional(),
  selected_character_ids: z.array(UuidV4).max(MAX_SELECTED_CHARACTERS).optional(),
});
export type UserInput = z.infer<typeof UserInput>;
