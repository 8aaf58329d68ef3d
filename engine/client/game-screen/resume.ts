// A reload must not cost the player what the last turn had still to show them (an award, a forging, MOMENT
// COMPLETE). The controller keeps the turn's input, with the view of the moment it was sent in, in a store the screen
// provides (the browser's sessionStorage) from the moment it is sent until nothing of it is left to see; a reload
// sends that input again with its input_id, the server answers a replay with the outputs it committed, and the
// presentation plays again from there.
import { z } from 'zod';
import { UserInput } from '../../protocol/user-input.js';
import { LOOP_STATUS } from '../../schema/enums.js';
import { GameView } from '../../schema/views.js';
import type { PlayModel } from './model.js';

/** Where the snapshot of one run lives between page loads: text in, text (or nothing) out. */
export interface ResumeStore {
  load(): string | null;
  save(text: string | null): void;
}

export const UnseenTurn = z.object({
  run_id: z.string(),
  /** The input as it went out (audio bytes are not kept: a replay is answered from what the server committed). */
  input: UserInput,
  /** The moment the input was sent in, drawn while the replay comes back. */
  view: GameView.nullable(),
});
export type UnseenTurn = z.infer<typeof UnseenTurn>;

/** The stored snapshot of this run, or null when there is none or it does not parse (it is then ignored). */
export function parseUnseenTurn(text: string | null, runId: string): UnseenTurn | null {
  if (!text) return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = UnseenTurn.safeParse(json);
  return parsed.success && parsed.data.run_id === runId && parsed.data.input.player_story_id === runId ? parsed.data : null;
}

/**
 * Whether the last turn still has something for the player to see: its answer (still thinking), an award or a
 * forging on show or queued, or a complete moment whose MOMENT COMPLETE the player has not left yet.
 */
export function presentationPending(m: PlayModel): boolean {
  return m.voice.processing
    || m.awardShown.current !== null || m.awardShown.queue.length > 0
    || m.forging.phase !== 'hidden'
    || (m.momentComplete && m.loopStatus === LOOP_STATUS.ongoing && !m.endOfGame);
}
