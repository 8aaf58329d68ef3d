// Reward, equip, upgrade and assemble (game spec §4), applied from the brain's decision and checked here.
import { CARD_RARITIES, type CardRarity } from '../schema/enums.js';
import { NOTIFICATION_MS } from '../schema/notification.js';
import type { PlayerCharacter, PlayerMoment } from '../schema/player.js';
import type { BlueprintMoment } from '../story/format.js';
import { indexStory } from '../story/story-index.js';
import { remainingInteractions } from '../catalogue/display.js';
import type { Draft } from './draft.js';
import { addBlueprintCharacter, addBlueprintItem, addDynamicItem, addItem, equip, runLanguage } from './roster.js';
import { selectedCharacters } from './state.js';
import { say } from './texts.js';
import type { TurnInfo } from './turn-info.js';
import { rewardsOf, teamSizeOf, upgradeOf } from '../moments/fields.js';

function runId(d: Draft): string {
  const run = d.state.run;
  if (!run) throw new Error('no run');
  return run.id;
}

/** Reward: creates only what the player lacks; owned items and characters are never given twice. */
export function applyReward(d: Draft, m: BlueprintMoment, info: TurnInfo): void {
  const award = info.decision.award;
  if (!award) return;
  const idx = indexStory(d.story);
  for (const r of rewardsOf(m)) {
    if (r.reward_type !== award.reward_type) continue;
    const source = r.source ?? r.reward_type;
    if (r.reward_type === 'character' && r.character_ids.includes(award.id)) {
      const bc = idx.characters.get(award.id);
      if (!bc || d.state.characters.some((c) => c.blueprint_character_id === bc.id)) return;
      const row = addBlueprintCharacter(d, runId(d), bc, m.id);
      info.award = { type: source, id: row.id };
      return;
    }
    if (r.reward_type === 'item' && r.item_ids.includes(award.id)) {
      const bi = idx.items.get(award.id);
      if (!bi || d.state.items.some((i) => i.blueprint_item_id === bi.id)) return;
      const row = addBlueprintItem(d, runId(d), bi, source, m.id);
      info.award = { type: source, id: row.id };
      return;
    }
    const dr = r.dynamic_rewards.find((x) => x.id === award.id);
    if (r.reward_type === 'dynamic_item' && dr) {
      const name = dr.name.en;
      if (d.state.items.some((i) => i.blueprint_item_id === null && i.acquired_in_blueprint_moment_id === m.id && (i.name === name || i.name === dr.name.fr))) return;
      const row = addDynamicItem(d, runId(d), dr, m.id);
      info.award = { type: source, id: row.id };
      return;
    }
  }
}

/** An item for a score at or above score_threshold_for_award (source perfect_answer). */
export function applyScoreAward(d: Draft, m: BlueprintMoment, info: TurnInfo): void {
  if (info.award || m.score_threshold_for_award === undefined || !m.perfect_answer_item_id) return;
  if (info.decision.score < m.score_threshold_for_award) return;
  const bi = indexStory(d.story).items.get(m.perfect_answer_item_id);
  if (!bi || d.state.items.some((i) => i.blueprint_item_id === bi.id)) return;
  const row = addBlueprintItem(d, runId(d), bi, 'perfect_answer', m.id);
  info.award = { type: 'perfect_answer', id: row.id };
}

/** Equip: the item's properties merge into a selected character; the item is marked equipped. */
export function applyEquip(d: Draft, m: BlueprintMoment, info: TurnInfo): boolean {
  const e = info.decision.equip;
  if (!e) return false;
  const character = selectedCharacters(d.state).find((c) => c.id === e.character_id);
  const item = d.state.items.find((i) => i.id === e.item_id);
  if (!character || !item) return false;
  const added = item.properties.filter((p) => !character.properties.includes(p));
  d.update('player_characters', character, { properties: [...character.properties, ...added] });
  equip(d, character.id, item.id, m.id);
  const image = d.state.item_media.find((x) => x.player_item_id === item.id)?.media_url ?? '';
  info.equip = { character_id: character.id, item_id: item.id, property: added[0] ?? item.properties[0] ?? '', image };
  return true;
}

const rarityIndex = (t: string): number => Math.max(0, (CARD_RARITIES as readonly string[]).indexOf(t));

/**
 * Upgrade: first the bet (character, difficulty, bet size; it may take several turns), then the riddle.
 * The bet is spent from the remaining interactions, capped so that a bet alone never ends the run.
 * Returns true when the upgrade succeeded (the moment completes).
 */
export function applyUpgrade(d: Draft, m: BlueprintMoment, pmIn: PlayerMoment, info: TurnInfo): { pm: PlayerMoment; done: boolean } {
  const rules = upgradeOf(m);
  const move = info.decision.upgrade;
  let pm = pmIn;
  if (!rules || !move) return { pm, done: false };
  const lang = runLanguage(d);
  const run = d.state.run;
  if (!run) return { pm, done: false };
  const bet = pm.upgrade_bet ?? { character_id: null, bet: null, level: null, placed: false };
  if (move.stage === 'bet' && !bet.placed) {
    const team = selectedCharacters(d.state);
    const character = move.character_id ? team.find((c) => c.id === move.character_id) : undefined;
    const level = move.level ? rules.difficulties.find((x) => x.level === move.level) : undefined;
    const next = {
      character_id: character?.id ?? bet.character_id,
      level: level?.level ?? bet.level,
      bet: move.bet !== undefined ? move.bet : bet.bet,
      placed: false,
    };
    const who = team.find((c) => c.id === next.character_id);
    if (next.character_id && next.level && next.bet !== null) {
      const affordable = remainingInteractions(run.loop_max_number_of_interactions, run.loop_current_number_of_interactions) - 1;
      const size = Math.max(0, Math.min(Math.max(rules.min_bet, Math.min(next.bet, rules.max_bet)), affordable));
      next.bet = size;
      next.placed = true;
      d.update('player_stories', run, { loop_current_number_of_interactions: run.loop_current_number_of_interactions + size });
      info.bet = { size, level: next.level };
      info.notifications.push({
        kind: 'upgrade_progress', id: d.uuid(), message: say('riddle', lang), duration: NOTIFICATION_MS.upgrade_complete,
        upgradeData: { character: who?.name ?? '', bet: size, difficulty: next.level, isComplete: true },
      });
    } else {
      info.notifications.push({
        kind: 'upgrade_progress', id: d.uuid(), message: say('upgrade_pending', lang),
        upgradeData: { character: who?.name ?? '', bet: next.bet ?? 0, difficulty: next.level ?? '', isComplete: false },
      });
    }
    pm = d.update('player_moments', pm, { upgrade_bet: next });
    return { pm, done: false };
  }
  if (move.stage !== 'answer' || !bet.placed || !move.correct) return { pm, done: false };
  const character = d.state.characters.find((c) => c.id === bet.character_id);
  const level = rules.difficulties.find((x) => x.level === bet.level);
  if (!character || !level) return { pm, done: false };
  upgradeCard(d, m, pm, character, level.rarity, rules.sacrifice_properties, info);
  if (rules.reward_item_id) {
    const bi = indexStory(d.story).items.get(rules.reward_item_id);
    if (bi && !d.state.items.some((i) => i.blueprint_item_id === bi.id)) addBlueprintItem(d, run.id, bi, 'upgrade', m.id);
  }
  return { pm, done: true };
}

function upgradeCard(
  d: Draft, m: BlueprintMoment, pm: PlayerMoment, c: PlayerCharacter, rarity: CardRarity, sacrifice: boolean, info: TurnInfo,
): void {
  const lang = runLanguage(d);
  const steps = Math.max(0, rarityIndex(rarity) - rarityIndex(c.card_type));
  const gain = 2 * steps;
  const sacrificed = sacrifice ? [...c.properties] : [];
  d.update('player_characters', c, {
    card_type: c.card_type === 'permanent' ? 'permanent' : rarity,
    current_attack: c.current_attack + gain,
    max_health: c.max_health + gain,
    current_health: c.current_health + gain,
    properties: sacrifice ? [] : c.properties,
  });
  info.upgrade = { character_id: c.id, rarity, sacrificed };
  info.award = { type: 'upgrade', id: c.id };
  const description = say('card_upgraded', lang, { card_type: rarity, attack: gain, health: gain });
  d.emit({ type: 'send_card_modifiers', payload: { player_moment_id: pm.id, applied_modifiers: [{ character_name: c.name, card_type: rarity, description }] } });
  info.notifications.push({
    kind: 'card_modifier', id: d.uuid(), message: `${c.name}: ${description}`, duration: NOTIFICATION_MS.card_modifier,
    player_moment_id: pm.id, applied_modifiers: [{ character_name: c.name, card_type: rarity, description }],
  });
  if (sacrificed.length > 0) {
    // Sacrificed properties come back as one essence item per character, growing with each sacrifice.
    const name = say('sacrificed_item', lang, { name: c.name });
    const essence = d.state.items.find((i) => i.source === 'sacrificed_properties' && i.name === name);
    const properties = essence ? [...new Set([...essence.properties, ...sacrificed])] : sacrificed;
    const run = d.state.run;
    if (essence) d.update('player_items', essence, { properties, description: properties.join(', '), defense_bonus: properties.length });
    else if (run) {
      addItem(d, run.id, {
        name, description: properties.join(', '), attack_bonus: 0, defense_bonus: properties.length, properties, rarity: 'rare',
      }, 'sacrificed_properties', null, m.id);
    }
    info.notifications.push({
      kind: 'sacrificed_properties', id: d.uuid(), message: say('sacrificed', lang, { properties: sacrificed.join(', ') }),
      duration: NOTIFICATION_MS.sacrificed_properties, properties: sacrificed,
    });
  }
}

/**
 * Assemble: the selection is saved live; it is complete when exactly the required number is selected.
 * `replace` sets the selection (a UI pick); otherwise named characters are added to it.
 */
export function applySelection(d: Draft, m: BlueprintMoment, ids: readonly string[], replace: boolean): { selected: string[]; complete: boolean } {
  const required = teamSizeOf(m) ?? 0;
  const alive = new Set(d.state.characters.filter((c) => c.current_health > 0).map((c) => c.id));
  const current = replace ? [] : d.state.characters.filter((c) => c.is_selected_in_assemble).map((c) => c.id);
  const wanted = [...current];
  for (const id of ids) if (alive.has(id) && !wanted.includes(id)) wanted.push(id);
  const selected = required > 0 ? wanted.slice(0, required) : wanted;
  const set = new Set(selected);
  for (const c of d.state.characters) {
    const sel = set.has(c.id);
    if (c.is_selected_in_assemble !== sel) d.update('player_characters', c, { is_selected_in_assemble: sel });
  }
  return { selected, complete: required > 0 && selected.length === required };
}
