// Golden ticket redemption (accounts spec §4, §5, §7, §8): one ticket makes one character, or one item,
// permanent. Items are implemented too (the spec's client said 'Permanent item creation not yet implemented').
import type { PermanentCharacter, PermanentCharacterItem } from '../schema/player.js';
import { indexStory } from '../story/story-index.js';
import type { Draft } from './draft.js';
import { ERR, fail, type StepFailure } from './errors.js';
import type { RedeemEvent } from './events.js';
import { equippedItemsOf } from './state.js';

export type RedeemResult =
  | { ok: true; permanent_character: PermanentCharacter | null; permanent_items: PermanentCharacterItem[] }
  | StepFailure;

export function redeemTicket(d: Draft, ev: RedeemEvent): RedeemResult {
  const ticket = d.state.tickets.find((t) => t.id === ev.ticket_id && t.user_id === d.state.user_id && !t.is_redeemed);
  if (!ticket) return fail(ERR.invalidTicket);
  if (!ev.card.id) return fail(ERR.noCardSelected);
  let permanent: PermanentCharacter | null = null;
  const items: PermanentCharacterItem[] = [];
  if (ev.card.kind === 'character') {
    const c = d.state.characters.find((x) => x.id === ev.card.id);
    if (!c) return fail(ERR.characterNotEnrolled);
    if (c.card_type === 'permanent' || c.permanent_character_id) return fail(ERR.alreadyPermanent);
    if (!c.blueprint_character_id || !indexStory(d.story).characters.has(c.blueprint_character_id)) return fail(ERR.blueprintCharacterMissing);
    permanent = d.put<PermanentCharacter>('player_permanent_characters', {
      id: d.uuid(), user_id: d.state.user_id, blueprint_character_id: c.blueprint_character_id, name: c.name,
      current_attack: c.current_attack, current_health: c.max_health, max_health: c.max_health, properties: [...c.properties],
      card_type: 'permanent', source_player_character_id: c.id, redeemed_ticket_id: ticket.id, created_at: d.iso,
    });
    for (const it of equippedItemsOf(d.state, c.id)) {
      items.push(d.put<PermanentCharacterItem>('player_permanent_character_items', {
        id: d.uuid(), user_id: d.state.user_id, player_permanent_character_id: permanent.id, name: it.name,
        description: it.description, attack_bonus: it.attack_bonus, defense_bonus: it.defense_bonus,
        properties: [...it.properties], rarity: it.rarity, source_blueprint_item_id: it.blueprint_item_id,
        source_player_item_id: it.id, redeemed_ticket_id: null, created_at: d.iso,
      }));
    }
    for (const m of d.state.character_media.filter((x) => x.player_character_id === c.id)) {
      d.put('player_permanent_character_medias', { id: d.uuid(), player_permanent_character_id: permanent.id, media_url: m.media_url, created_at: d.iso });
    }
  } else {
    const it = d.state.items.find((x) => x.id === ev.card.id);
    if (!it) return fail(ERR.itemNotFound);
    if (it.permanent_item_id) return fail(ERR.alreadyPermanent);
    items.push(d.put<PermanentCharacterItem>('player_permanent_character_items', {
      id: d.uuid(), user_id: d.state.user_id, player_permanent_character_id: null, name: it.name,
      description: it.description, attack_bonus: it.attack_bonus, defense_bonus: it.defense_bonus,
      properties: [...it.properties], rarity: it.rarity, source_blueprint_item_id: it.blueprint_item_id,
      source_player_item_id: it.id, redeemed_ticket_id: ticket.id, created_at: d.iso,
    }));
  }
  d.put('player_permanent_character_tickets', { ...ticket, is_redeemed: true, redeemed_at: d.iso });
  return { ok: true, permanent_character: permanent, permanent_items: items };
}
