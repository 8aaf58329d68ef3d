// What a moment type's rules in play get: entering a moment (engine/run/enter-moment.ts) and a player's turn in it
// (engine/run/turn.ts), with the draft state they change.
import type { Draft } from '../run/draft.js';
import type { TurnEvent } from '../run/events.js';
import type { TurnInfo } from '../run/turn-info.js';
import type { GameOutput } from '../schema/game-output.js';
import type { PlayerMoment } from '../schema/player.js';
import type { BlueprintMoment } from '../story/format.js';

/** What a turn's rules decide: complete (null: as the decision says), lost, and a second line said after the reply. */
export type RuleResult = { complete: boolean | null; lost: boolean; secondLine: string };

export type TurnCtx = { d: Draft; m: BlueprintMoment; pm: PlayerMoment; info: TurnInfo; ev: TurnEvent; outputs: GameOutput[] };

export type PlayHooks = {
  /** Sets the moment up as it is entered (not when it is skipped). */
  enter?: (d: Draft, m: BlueprintMoment, pm: PlayerMoment) => void;
  /** Applies a player's turn (not the opening) to the state; the decision's outcome stands when absent. */
  turn?: (c: TurnCtx, res: RuleResult) => void;
};
