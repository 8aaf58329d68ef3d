// The answer to a turn the game did not catch (a miss): nothing changes, no interaction is counted, and the player
// hears "Sorry, I didn't catch that." with a hint of what can be said (engine/brain/miss-help.ts); from the second miss
// in a row the choices come too. Pure: the GAME_OUTPUT of the current state plus `not_caught`, and the line to speak.
import { missHelp } from '../brain/miss-help.js';
import { momentStage } from '../moments/stage.js';
import type { Decision } from '../brain/decision.js';
import type { PlayLanguage } from '../schema/enums.js';
import type { GameOutput } from '../schema/game-output.js';
import type { Story } from '../story/format.js';
import { indexStory } from '../story/story-index.js';
import type { Effect } from './effects.js';
import { buildOutput } from './output.js';
import { currentMoment, type GameState } from './state.js';
import { newTurnInfo } from './turn-info.js';

export type NotCaughtTurn = {
  output: GameOutput;
  speak: Extract<Effect, { type: 'speak' }>;
  /** Where the miss happened, for the record (looptale_private.voice_misses). */
  where: { player_moment_id: string; blueprint_moment_id: string; stage: string; turn_index: number };
};

/** The dialogue entries of the current moment: misses in a row are those at the same count. */
export function missTurnIndex(state: GameState): number {
  return currentMoment(state)?.dialogue_history.length ?? 0;
}

export function notCaughtTurn(
  story: Story, state: GameState,
  miss: { input_id: string; miss_number: number; reason: string },
): NotCaughtTurn | null {
  const run = state.run;
  const pm = currentMoment(state);
  if (!run || !pm) return null;
  const language: PlayLanguage = run.language === 'french' ? 'french' : 'english';
  const help = missHelp(story, state, language, miss.miss_number);
  const bm = indexStory(story).moments.get(pm.blueprint_moment_id);
  const decision: Decision = {
    reply: help.dialogue, emotion: bm?.default_emotion ?? 'normal', intensity: bm?.default_emotion_intensity ?? 1, outcome: 'continue',
    perfect: false, cache_hit: false, score: 0, facts: [], matched: '', lines_used: {},
  };
  const info = newTurnInfo({ input_id: miss.input_id, is_starting_dialogue: false, transcription: '', decision, player_moment_id: pm.id, blueprint_moment_id: pm.blueprint_moment_id });
  const output: GameOutput = {
    ...buildOutput(state, info, help.dialogue),
    not_caught: { miss_number: miss.miss_number, reason: miss.reason, hint: help.hint, choices: help.choices },
  };
  const bc = bm?.character_id ? indexStory(story).characters.get(bm.character_id) : undefined;
  const speak: NotCaughtTurn['speak'] = {
    type: 'speak', text: help.dialogue, language, blueprint_character_id: bm?.character_id ?? null, ...(bc?.voice ? { voice: bc.voice } : {}),
    emotion: decision.emotion, intensity: decision.intensity, player_moment_id: pm.id, is_starting_dialogue: false, input_id: miss.input_id,
  };
  const { stage } = momentStage(story, state);
  return { output, speak, where: { player_moment_id: pm.id, blueprint_moment_id: pm.blueprint_moment_id, stage, turn_index: missTurnIndex(state) } };
}
