// The battle indicator (game spec §2, §4 "Battle"): shown only for Battle moments; ATTACK with no phase or in the
// initial, player_attack_input or ai_attack_selection phase; DEFEND in player_defense_input.
import { BattlePhase, type MomentType } from '../schema/enums.js';

export const BATTLE_MOMENT_TYPE = 'Battle' satisfies MomentType;
export const BATTLE_INDICATOR_TEXT = { attack: 'ATTACK', defend: 'DEFEND' } as const;
export type BattleIndicator = (typeof BATTLE_INDICATOR_TEXT)[keyof typeof BATTLE_INDICATOR_TEXT];

/** The phase of battle_state_next_phase; 'initial' is the default phase, and no phase means the same. */
export function parseBattlePhase(phase: string | null | undefined): BattlePhase {
  const parsed = BattlePhase.safeParse(phase?.trim());
  return parsed.success ? parsed.data : 'initial';
}

// A phase this client does not know reads as the default phase (ATTACK) rather than hiding the indicator mid-battle.
export function battleIndicator(momentType: string | null | undefined, phase: string | null | undefined): BattleIndicator | null {
  if (momentType !== BATTLE_MOMENT_TYPE) return null;
  switch (parseBattlePhase(phase)) {
    case 'initial':
    case 'player_attack_input':
    case 'ai_attack_selection':
      return BATTLE_INDICATOR_TEXT.attack;
    case 'player_defense_input':
      return BATTLE_INDICATOR_TEXT.defend;
  }
}
