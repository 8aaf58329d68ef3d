// The stage of a state's current moment, the one place it is computed: what the player can say there (speakable.ts),
// the states tools check a moment's speech at (engine/sim/moment-states.ts) and the bench's stages
// (scripts/bench/lib/speech-stages.ts) all read it from here.
import { currentMoment, type GameState } from '../run/state.js';
import type { BlueprintMoment, Story } from '../story/format.js';
import { stageOfMoment } from './registry.js';
import type { Stage } from './types.js';

export type MomentStage = {
  /** The current moment's blueprint; null when no moment is under way. */
  moment: BlueprintMoment | null;
  /** The moment type's stage: '' for most, 'attack' / 'defend' in battle, 'bet' / 'riddle' in an upgrade. */
  stage: Stage;
  /** The stage told apart further, by whom a defence is for and which riddle is asked: '' | 'attack' |
   *  'defend:<struck character>' | 'bet' | 'riddle:<level>'. */
  key: string;
};

/** The stage of the state's current moment. */
export function momentStage(story: Story, state: GameState): MomentStage {
  const pm = currentMoment(state);
  const moment = pm ? story.moments.find((x) => x.id === pm.blueprint_moment_id) ?? null : null;
  if (!pm || !moment) return { moment: null, stage: '', key: '' };
  const stage = stageOfMoment(moment.type, pm);
  if (stage === 'defend') return { moment, stage, key: `defend:${state.characters.find((c) => c.id === pm.pending_strike?.target_id)?.name ?? '?'}` };
  if (stage === 'riddle') return { moment, stage, key: `riddle:${pm.upgrade_bet?.level ?? '?'}` };
  return { moment, stage, key: stage };
}
