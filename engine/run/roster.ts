// Creating the player's cards: characters and items from the blueprint, copies from an earlier run, permanent
// cards. Every row goes through the draft, so it is persisted.
import type { AwardSource } from '../schema/enums.js';
import type { PermanentCharacter, PermanentCharacterItem, PlayerCharacter, PlayerItem } from '../schema/player.js';
import type { BlueprintCharacter, BlueprintItem, DynamicReward } from '../story/format.js';
import { localize } from '../story/text.js';
import type { Draft } from './draft.js';

export function runLanguage(d: Draft): 'english' | 'french' {
  const run = d.state.run;
  return run?.language === 'french' ? 'french' : 'english';
}

export function addBlueprintCharacter(d: Draft, runId: string, bc: BlueprintCharacter, momentId: string | null): PlayerCharacter {
  const row = d.put<PlayerCharacter>('player_characters', {
    id: d.uuid(),
    user_id: d.state.user_id,
    blueprint_character_id: bc.id,
    player_story_id: runId,
    name: bc.name,
    current_attack: bc.base_attack,
    current_health: bc.base_health,
    max_health: bc.base_health,
    properties: [...bc.properties],
    card_type: bc.card_type,
    enrolled_in_blueprint_moment_id: momentId,
    is_selected_in_assemble: true,
    permanent_character_id: null,
    burned_out_at: null,
    created_at: d.iso,
  });
  const media = [...bc.media, ...bc.team_media];
  for (const m of media) {
    d.put('player_character_medias', {
      id: d.uuid(), media_url: m.url, media_kind: m.kind, blueprint_story_id: d.story.id, blueprint_character_id: bc.id,
      blueprint_item_id: null, blueprint_place_id: null, player_character_id: row.id, player_item_id: null,
      player_story_id: runId, created_at: d.iso,
    });
  }
  return row;
}

type ItemShape = Pick<PlayerItem, 'name' | 'description' | 'attack_bonus' | 'defense_bonus' | 'properties' | 'rarity'>;

export function addItem(
  d: Draft, runId: string, shape: ItemShape, source: AwardSource, blueprintItemId: string | null, momentId: string | null,
  mediaUrls: readonly string[] = [], permanentItemId: string | null = null,
): PlayerItem {
  const row = d.put<PlayerItem>('player_items', {
    id: d.uuid(),
    user_id: d.state.user_id,
    player_story_id: runId,
    blueprint_item_id: blueprintItemId,
    name: shape.name,
    description: shape.description,
    attack_bonus: shape.attack_bonus,
    defense_bonus: shape.defense_bonus,
    properties: [...shape.properties],
    rarity: shape.rarity,
    source,
    acquired_in_blueprint_moment_id: momentId,
    permanent_item_id: permanentItemId,
    created_at: d.iso,
  });
  for (const url of mediaUrls) {
    d.put('player_item_medias', {
      id: d.uuid(), media_url: url, media_kind: 'image', blueprint_story_id: d.story.id, blueprint_character_id: null,
      blueprint_item_id: blueprintItemId, blueprint_place_id: null, player_character_id: null, player_item_id: row.id,
      player_story_id: runId, created_at: d.iso,
    });
  }
  return row;
}

export function addBlueprintItem(d: Draft, runId: string, bi: BlueprintItem, source: AwardSource, momentId: string | null): PlayerItem {
  const lang = runLanguage(d);
  return addItem(d, runId, {
    name: localize(bi.name, lang),
    description: bi.description ? localize(bi.description, lang) : '',
    attack_bonus: bi.attack_bonus,
    defense_bonus: bi.defense_bonus,
    properties: bi.properties,
    rarity: bi.rarity,
  }, source, bi.id, momentId, bi.media.map((m) => m.url));
}

export function addDynamicItem(d: Draft, runId: string, dr: DynamicReward, momentId: string): PlayerItem {
  const lang = runLanguage(d);
  return addItem(d, runId, {
    name: localize(dr.name, lang),
    description: dr.description ? localize(dr.description, lang) : '',
    attack_bonus: dr.attack_bonus,
    defense_bonus: dr.defense_bonus,
    properties: dr.properties,
    rarity: dr.rarity,
  }, 'dynamic_item', null, momentId);
}

export function equip(d: Draft, characterId: string, itemId: string, blueprintMomentId: string | null): void {
  // An item is worn by one character at a time: take it off anyone else first.
  for (const link of d.state.character_items) {
    if (link.player_item_id === itemId && link.is_equipped && link.player_character_id !== characterId) {
      d.update('player_character_items', link, { is_equipped: false });
    }
  }
  const existing = d.state.character_items.find((l) => l.player_item_id === itemId && l.player_character_id === characterId);
  d.put('player_character_items', {
    id: existing?.id ?? d.uuid(),
    player_character_id: characterId,
    player_item_id: itemId,
    is_equipped: true,
    equipped_at: d.iso,
    equipped_in_moment_id: blueprintMomentId,
  });
}

/** Brings a permanent card (and its items) into a run. */
export function addPermanentCharacter(
  d: Draft, runId: string, pc: PermanentCharacter, items: readonly PermanentCharacterItem[], mediaUrls: readonly string[],
): PlayerCharacter {
  const row = d.put<PlayerCharacter>('player_characters', {
    id: d.uuid(),
    user_id: d.state.user_id,
    blueprint_character_id: pc.blueprint_character_id,
    player_story_id: runId,
    name: pc.name,
    current_attack: pc.current_attack,
    current_health: pc.max_health,
    max_health: pc.max_health,
    properties: [...pc.properties],
    card_type: 'permanent',
    enrolled_in_blueprint_moment_id: null,
    is_selected_in_assemble: true,
    permanent_character_id: pc.id,
    burned_out_at: null,
    created_at: d.iso,
  });
  for (const url of mediaUrls) {
    d.put('player_character_medias', {
      id: d.uuid(), media_url: url, media_kind: 'image', blueprint_story_id: null, blueprint_character_id: pc.blueprint_character_id,
      blueprint_item_id: null, blueprint_place_id: null, player_character_id: row.id, player_item_id: null,
      player_story_id: runId, created_at: d.iso,
    });
  }
  for (const it of items) {
    const item = addItem(d, runId, it, 'rank_achieved', null, null, [], it.id);
    equip(d, row.id, item.id, null);
  }
  return row;
}
