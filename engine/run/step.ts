// The engine's step function: (state, event, ctx) -> { state, effects }. Pure: time and the story come in through
// ctx, randomness from the seeded source saved in the state. Expected failures are values; only bugs throw.
import type { GameOutput } from '../schema/game-output.js';
import type { PlayerStory } from '../schema/player.js';
import { LOOP_STATUS } from '../schema/enums.js';
import { createRun } from './create-run.js';
import { Draft, type StepContext } from './draft.js';
import type { Effect } from './effects.js';
import { finishRun, isFinished } from './end-run.js';
import { ERR, fail, type StepFailure } from './errors.js';
import type { GameEvent } from './events.js';
import { applySelection } from './apply-cards.js';
import { redeemTicket, type RedeemResult } from './redeem.js';
import { currentMoment, currentRun, type GameState } from './state.js';
import { indexStory } from '../story/story-index.js';
import { traitsOf } from '../moments/registry.js';
import { applyTurn } from './turn.js';

export type { StepContext } from './draft.js';

export type StepSuccess = {
  ok: true;
  state: GameState;
  effects: Effect[];
  /** GAME_OUTPUTs of a turn (two for a battle attack: the attack, then the AI's strike). */
  outputs: GameOutput[];
  run?: PlayerStory;
  redeemed?: Extract<RedeemResult, { ok: true }>;
};
export type StepResult = StepSuccess | StepFailure;

export function step(state: GameState, event: GameEvent, ctx: StepContext): StepResult {
  if (state.story_id !== ctx.story.id) throw new Error(`state is for story ${state.story_id}, ctx for ${ctx.story.id}`);
  const d = new Draft(state, ctx);
  let outputs: GameOutput[] = [];
  let redeemed: StepSuccess['redeemed'];
  switch (event.type) {
    case 'run.create': {
      const r = createRun(d, event);
      if (!r.ok) return r;
      if (r.entered.kind === 'end_of_game') finishRun(d, r.run.id, false);
      break;
    }
    case 'turn': {
      const r = applyTurn(d, event);
      if (!r.ok) return r;
      outputs = r.outputs;
      const language = d.state.run?.language === 'french' ? 'french' : 'english';
      for (const o of outputs) {
        if (!o.dialogue) continue;
        const bm = indexStory(ctx.story).moments.get(o.blueprint_moment_id);
        const bc = bm?.character_id ? indexStory(ctx.story).characters.get(bm.character_id) : undefined;
        d.emit({
          type: 'speak', text: o.dialogue, language, blueprint_character_id: bm?.character_id ?? null, ...(bc?.voice ? { voice: bc.voice } : {}),
          emotion: o.character_emotion_key, intensity: o.character_emotion_strength, player_moment_id: o.player_moment_id,
          is_starting_dialogue: o.is_starting_dialogue, input_id: o.input_id,
        });
      }
      break;
    }
    case 'assemble.select': {
      const run = currentRun(d.state);
      if (!run) return fail(ERR.noRun);
      if (isFinished(run)) return fail(ERR.runFinished);
      const pm = currentMoment(d.state);
      const bm = pm ? indexStory(ctx.story).moments.get(pm.blueprint_moment_id) : undefined;
      if (!bm || !traitsOf(bm.type).picksTeam || pm?.completed_at) return fail({ code: 'assemble/not_assembling', message: 'The team can only be chosen during an Assemble moment.' });
      applySelection(d, bm, event.character_ids, true);
      break;
    }
    case 'run.end': {
      // Manual end (End Current Run): lost, not successful, rank stored.
      const run = currentRun(d.state);
      if (!run) return fail(ERR.noRun);
      if (run.loop_status !== LOOP_STATUS.ongoing) return fail(ERR.runFinished);
      finishRun(d, run.id, false);
      break;
    }
    case 'ticket.redeem': {
      const r = redeemTicket(d, event);
      if (!r.ok) return r;
      redeemed = r;
      break;
    }
  }
  const { state: next, effects } = d.finish();
  const run = currentRun(next);
  const res: StepSuccess = { ok: true, state: next, effects, outputs };
  if (run) res.run = run;
  if (redeemed) res.redeemed = redeemed;
  return res;
}
