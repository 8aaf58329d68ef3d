// A queued piece of a character's speech on the client (game spec §3 "Dialogue audio item").
import { z } from 'zod';

export const DialogueAudioItem = z.object({
  /** MP3 bytes of one AUDIO_ANSWER frame. */
  audio_data: z.instanceof(Uint8Array),
  player_moment_id: z.string(),
  input_id: z.string().optional(),
  is_starting_dialogue: z.boolean().optional(),
});
export type DialogueAudioItem = z.infer<typeof DialogueAudioItem>;
