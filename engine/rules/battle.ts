// Battle arithmetic (game spec §4 "Battle"). Phases cycle player_attack_input -> ai_attack_selection ->
// player_defense_input -> player_attack_input. The spec gives no formulas; these are Looptale's, documented here:
//   attack damage  = (attack + item attack bonuses) x 1.5 when thematic, rounded;
//   recoil          = max(0, floor(target attack / 4) - item defence bonuses) taken by the attacker;
//   strike damage   = max(0, opponent attack - item defence bonuses), halved (floored) by a thematic defence,
//                     in full when the player does not defend at all.

export const THEMATIC_ATTACK_MULTIPLIER = 1.5;
export const BURN_ANIMATION_MS = 2000;

export type Bonus = { attack_bonus: number; defense_bonus: number };

export function totalBonus(items: readonly Bonus[]): Bonus {
  let attack_bonus = 0;
  let defense_bonus = 0;
  for (const i of items) {
    attack_bonus += i.attack_bonus;
    defense_bonus += i.defense_bonus;
  }
  return { attack_bonus, defense_bonus };
}

export function attackDamage(attack: number, bonus: Bonus, thematic: boolean): number {
  const base = Math.max(0, attack + bonus.attack_bonus);
  return Math.round(thematic ? base * THEMATIC_ATTACK_MULTIPLIER : base);
}

export function recoilDamage(targetAttack: number, bonus: Bonus): number {
  return Math.max(0, Math.floor(targetAttack / 4) - Math.max(0, bonus.defense_bonus));
}

export function strikeDamage(opponentAttack: number, bonus: Bonus, defence: 'none' | 'plain' | 'thematic'): number {
  const raw = Math.max(0, opponentAttack - (defence === 'none' ? 0 : Math.max(0, bonus.defense_bonus)));
  return defence === 'thematic' ? Math.floor(raw / 2) : raw;
}

export function applyDamage(health: number, damage: number): number {
  return Math.max(0, health - damage);
}
