// What a moment type's bot move gets (engine/sim/bots.ts builds it): which bot plays, the state, the moment, the
// language, the team still standing, and the move of a bot that only talks (an authored answer or branch).
import type { BotName, Utterance } from '../sim/bots.js';
import type { PlayLanguage } from '../schema/enums.js';
import type { PlayerCharacter, PlayerMoment } from '../schema/player.js';
import type { GameState } from '../run/state.js';
import type { BlueprintMoment, Story } from '../story/format.js';
import type { DecisionInput } from '../brain/decision.js';
import type { SeededRandom } from '../random.js';

export type BotCtx = {
  bot: Exclude<BotName, 'random'>;
  s: GameState;
  story: Story;
  m: BlueprintMoment;
  pm: PlayerMoment;
  lang: PlayLanguage;
  team: PlayerCharacter[];
  /** What a bot that only talks says here. */
  talk: () => string;
};

/** What the random player of the engine's property tests (engine/run/test-bot.ts) gets: its seeded source, the
 *  state, the moment, the team still standing, and the decision it fills in. */
export type RandomMoveCtx = { r: SeededRandom; s: GameState; m: BlueprintMoment; pm: PlayerMoment; team: PlayerCharacter[]; d: DecisionInput };

export type BotHooks = {
  /** The optimal or greedy bot's move (a talking move when absent). */
  move?: (c: BotCtx) => Utterance;
  /** What a talking bot says here before looking at answers (a branch at a Crossroad); '' for nothing. */
  talk?: (c: Omit<BotCtx, 'talk' | 'pm' | 'team'>) => string;
  /** The random player's move here, drawn from c.r into c.d (a random talking move when absent). */
  random?: (c: RandomMoveCtx) => void;
};
