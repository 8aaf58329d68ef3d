// The fields only some moment types have, read from a moment of any type: what a moment of a type without the field
// has (none, or undefined), without naming a type. Each narrows the moment union by the field's presence.
import type { BattleOpponent, BlueprintMoment, BlueprintReward, UpgradeRules } from '../story/format.js';

/** What a Reward moment gives; none elsewhere. */
export const rewardsOf = (m: BlueprintMoment): readonly BlueprintReward[] => ('rewards' in m ? m.rewards : []);

/** Whom a Battle moment's team fights; none elsewhere. */
export const opponentsOf = (m: BlueprintMoment): readonly BattleOpponent[] => ('opponents' in m ? m.opponents : []);

/** An Upgrade moment's difficulties, riddles and bets. */
export const upgradeOf = (m: BlueprintMoment): UpgradeRules | undefined => ('upgrade' in m ? m.upgrade : undefined);

/** How many characters an Assemble moment's team must have. */
export const teamSizeOf = (m: BlueprintMoment): number | undefined => ('max_number_of_characters' in m ? m.max_number_of_characters : undefined);
