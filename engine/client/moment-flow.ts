// The client's side of the moment flow (game spec §4): which outputs it applies, the dialogue it shows, and where the
// moment leads. An output already processed, or one while the current moment lacks its ids, is ignored; a complete
// moment with an empty or non-v4-UUID next id is the end of the game.
import { isUuidV4 } from '../schema/ids.js';
import type { GameOutput } from '../schema/game-output.js';
import type { DialogueEntry } from '../schema/player.js';
import { appendPlayerLine } from '../run/dialogue-lines.js';

export type MomentFlowState = {
  playerStoryId: string | null;
  playerMomentId: string | null;
  dialogue: DialogueEntry[];
  /** Keys of outputs already applied (bounded). */
  processed: string[];
  outcome: 'playing' | 'moment_complete' | 'end_of_game';
  nextMomentId: string | null;
};

export const PROCESSED_MEMORY = 200;

export function initialMomentFlow(playerStoryId: string | null, playerMomentId: string | null): MomentFlowState {
  return { playerStoryId, playerMomentId, dialogue: [], processed: [], outcome: 'playing', nextMomentId: null };
}

/** The identity of one output: its input, which moment it speaks for, and whether it opened the moment. */
export function outputKey(o: GameOutput): string {
  return `${o.input_id}|${o.player_moment_id}|${o.is_starting_dialogue ? 's' : 't'}|${o.battle_state_next_phase}`;
}

export type FlowResult = { state: MomentFlowState; applied: boolean; reason?: 'already_processed' | 'no_moment' | 'other_moment' };

/**
 * Waits for the next moment: the first output of another moment is adopted (its id becomes the current moment's).
 * What a client does on 'Start next moment', or when it opens a run whose moment id it does not know yet.
 */
export function awaitNextMoment(s: MomentFlowState): MomentFlowState {
  return { ...s, playerMomentId: null, dialogue: [], outcome: 'playing', nextMomentId: null };
}

/**
 * Applies one output once. Without a run nothing applies; an output of another run, or of another moment while this
 * one is still being played (a late answer of an earlier moment), is ignored. The first output of a new moment is
 * adopted when the client waits for one (no moment id yet, or the current moment is complete).
 */
export function applyOutput(s: MomentFlowState, o: GameOutput): FlowResult {
  if (!s.playerStoryId) return { state: s, applied: false, reason: 'no_moment' };
  if (o.player_story_id !== s.playerStoryId) return { state: s, applied: false, reason: 'other_moment' };
  const key = outputKey(o);
  if (s.processed.includes(key)) return { state: s, applied: false, reason: 'already_processed' };
  let current = s;
  if (o.player_moment_id !== s.playerMomentId) {
    if (s.playerMomentId !== null && s.outcome !== 'moment_complete') return { state: s, applied: false, reason: 'other_moment' };
    current = { ...awaitNextMoment(s), playerMomentId: o.player_moment_id };
  }
  let dialogue = o.is_starting_dialogue ? current.dialogue : appendPlayerLine(current.dialogue, o.transcribed_player_answer);
  if (o.dialogue.trim()) dialogue = [...dialogue, { role: 'model', text: o.dialogue, isPerfectAnswer: o.was_perfect_answer, isCacheHit: o.was_cache_hit }];
  const processed = [...current.processed, key].slice(-PROCESSED_MEMORY);
  let outcome: MomentFlowState['outcome'] = current.outcome;
  let nextMomentId: string | null = current.nextMomentId;
  if (o.end_of_game || o.loop_status !== 'loopStatusOnGoing') outcome = 'end_of_game';
  else if (o.complete_the_moment) {
    if (isUuidV4(o.next_moment_id)) {
      outcome = 'moment_complete';
      nextMomentId = o.next_moment_id;
    } else outcome = 'end_of_game';
  }
  return { state: { ...current, dialogue, processed, outcome, nextMomentId }, applied: true };
}
