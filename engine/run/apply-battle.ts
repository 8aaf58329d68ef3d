// A battle turn (game spec §4 "Battle"): the player's attack, the AI's choice of strike, the player's defence.
import type { PlayerCharacter, PlayerMoment, PlayerOpponent } from '../schema/player.js';
import { applyDamage, attackDamage, recoilDamage, strikeDamage, totalBonus } from '../rules/battle.js';
import type { Draft } from './draft.js';
import { runLanguage } from './roster.js';
import { equippedItemsOf, momentById } from './state.js';
import { say } from './texts.js';
import type { TurnInfo } from './turn-info.js';

export type BattleStep = {
  /** The state right after the player's attack, before the AI chose its strike (first of two outputs). */
  afterAttack: boolean;
  won: boolean;
  lost: boolean;
};

function aliveTeam(d: Draft): PlayerCharacter[] {
  return d.state.characters.filter((c) => c.is_selected_in_assemble && c.current_health > 0);
}

function aliveOpponents(d: Draft, pmId: string): PlayerOpponent[] {
  return d.state.opponents.filter((o) => o.player_moment_id === pmId && o.current_health > 0);
}

/** Damages a team member; true when it burns out (counted on the run; the caller counts it on the moment). */
function hurt(d: Draft, c: PlayerCharacter, damage: number): boolean {
  const health = applyDamage(c.current_health, damage);
  const burned = health === 0 && c.current_health > 0;
  const burnedAt = burned ? d.iso : c.burned_out_at;
  const w = d.edit('player_characters', c);
  w.current_health = health;
  w.burned_out_at = burnedAt;
  if (!burned) return false;
  const run = d.state.run;
  if (run) {
    const burnOuts = run.burn_outs + 1;
    d.edit('player_stories', run).burn_outs = burnOuts;
  }
  return true;
}

export function applyBattle(d: Draft, pm: PlayerMoment, info: TurnInfo): BattleStep {
  const move = info.decision.battle;
  const lang = runLanguage(d);
  const result: BattleStep = { afterAttack: false, won: false, lost: false };
  const phase = pm.battle_phase === 'initial' ? 'player_attack_input' : pm.battle_phase;

  if (phase === 'player_defense_input' && pm.pending_strike) {
    const strike = pm.pending_strike;
    const opp = d.state.opponents.find((o) => o.id === strike.opponent_id);
    const target = d.state.characters.find((c) => c.id === strike.target_id);
    let burnOuts = pm.burn_outs;
    let history = pm.battle_action_history;
    if (opp && target) {
      const defence = move?.kind === 'defend' ? (move.thematic ? 'thematic' : 'plain') : 'none';
      const damage = strikeDamage(opp.current_attack, totalBonus(equippedItemsOf(d.state, target.id)), defence);
      if (hurt(d, target, damage)) burnOuts++;
      history = [...history, {
        turn_number: history.length + 1, actor_id: opp.id, actor_name: opp.name, target_id: target.id,
        target_name: target.name, action: say('strike', lang), was_thematic: false, damage, recoil_damage: 0,
      }];
    }
    const w = d.edit('player_moments', pm);
    w.burn_outs = burnOuts;
    w.battle_action_history = history;
    w.pending_strike = null;
    w.battle_phase = 'player_attack_input';
    result.lost = aliveTeam(d).length === 0;
    return result;
  }

  // Attack phase.
  if (move?.kind !== 'attack') {
    if (pm.battle_phase !== phase) d.edit('player_moments', pm).battle_phase = phase;
    return result;
  }
  const team = aliveTeam(d);
  const foes = aliveOpponents(d, pm.id);
  const actor = team.find((c) => c.id === move.actor_id) ?? team[0];
  const target = foes.find((o) => o.id === move.target_id || o.blueprint_character_id === move.target_id) ?? foes[0];
  if (!actor || !target) {
    result.lost = team.length === 0;
    return result;
  }
  const bonus = totalBonus(equippedItemsOf(d.state, actor.id));
  const damage = attackDamage(actor.current_attack, bonus, move.thematic);
  const recoil = recoilDamage(target.current_attack, bonus);
  const targetHealth = applyDamage(target.current_health, damage);
  d.edit('player_opponents', target).current_health = targetHealth;
  const burnOuts = pm.burn_outs + (hurt(d, actor, recoil) ? 1 : 0);
  const history = [...pm.battle_action_history, {
    turn_number: pm.battle_action_history.length + 1, actor_id: actor.id, actor_name: actor.name, target_id: target.id,
    target_name: target.name, action: move.action, was_thematic: move.thematic, damage, recoil_damage: recoil,
  }];
  const won = aliveOpponents(d, pm.id).length === 0;
  const lost = !won && aliveTeam(d).length === 0;
  const w = d.edit('player_moments', pm);
  w.burn_outs = burnOuts;
  w.battle_action_history = history;
  if (won) {
    w.battle_phase = 'player_attack_input';
    result.won = true;
    return result;
  }
  if (lost) {
    result.lost = true;
    return result;
  }
  w.battle_phase = 'ai_attack_selection';
  result.afterAttack = true;
  return result;
}

/** ai_attack_selection: a random standing opponent picks a random standing team member to strike. */
export function aiSelectStrike(d: Draft, pmId: string): void {
  const pm = momentById(d.state, pmId);
  if (!pm) return;
  const foes = aliveOpponents(d, pm.id);
  const team = aliveTeam(d);
  if (foes.length === 0 || team.length === 0) return;
  const striker = d.rng.pick(foes);
  const victim = d.rng.pick(team);
  const w = d.edit('player_moments', pm);
  w.battle_phase = 'player_defense_input';
  w.pending_strike = { opponent_id: striker.id, target_id: victim.id };
}

/** The AI's announcement, spoken in the second output of an attack turn. */
export function strikeAnnouncement(d: Draft, pm: PlayerMoment): string {
  const s = pm.pending_strike;
  if (!s) return '';
  const opp = d.state.opponents.find((o) => o.id === s.opponent_id);
  const target = d.state.characters.find((c) => c.id === s.target_id);
  return say('prepares_to_strike', runLanguage(d), { opponent: opp?.name ?? '', target: target?.name ?? '' });
}
