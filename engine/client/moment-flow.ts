// The client's side of the moment flow (game spec §4): which outputs it applies, the dialogue it shows, and where the
// moment leads. An output already processed, or one while the current moment lacks its ids, is ignored; a complete
// moment with an empty or non-v4-UUID next id is the end of the game.
import { isUuidV4 } from '../schema/ids.js';
import type { GameOutput } from '../schema/game-output.js';
import type { DialogueEntry } from '../schema/player.js';
import { appendPlayerLine } from '../run/turn.js';

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

export function applyOutput(s: MomentFlowState, o: GameOutput): FlowResult {
  if (!s.playerStoryId || !s.playerMomentId) return { state: s, applied: false, reason: 'no_moment' };
  if (o.player_moment_id !== s.playerMomentId || o.player_story_id !== s.playerStoryId) return { state: s, applied: false, reason: 'other_moment' };
  const key = outputKey(o);
  if (s.processed.includes(key)) return { state: s, applied: false, reason: 'already_processed' };
  let dialogue = o.is_starting_dialogue ? s.dialogue : appendPlayerLine(s.dialogue, o.transcribed_player_answer);
  if (o.dialogue.trim()) dialogue = [...dialogue, { role: 'model', text: o.dialogue, isPerfectAnswer: o.was_perfect_answer, isCacheHit: o.was_cache_hit }];
  const processed = [...s.processed, key].slice(-PROCESSED_MEMORY);
  let outcome: MomentFlowState['outcome'] = s.outcome;
  let nextMomentId: string | null = s.nextMomentId;
  if (o.end_of_game || o.loop_status !== 'loopStatusOnGoing') outcome = 'end_of_game';
  else if (o.complete_the_moment) {
    if (isUuidV4(o.next_moment_id)) {
      outcome = 'moment_complete';
      nextMomentId = o.next_moment_id;
    } else outcome = 'end_of_game';
  }
  return { state: { ...s, dialogue, processed, outcome, nextMomentId }, applied: true };
}
