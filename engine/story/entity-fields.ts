// The fields of a story's characters, items and places (engine/story/format.ts), described for an editor form the way
// engine/moments/common.ts describes a moment's: one list per collection, so the studio builds each entity's form from
// data and never names a field in its components. A `choice` picks one of `options`, `choices` several.
import { CARD_RARITIES, ITEM_RARITIES, STYLE_TAGS } from '../schema/enum-values.js';
import type { EditorField } from '../moments/types.js';

/** An entity field for a form: a moment's field kinds, plus a pick among fixed options and a character's voice. */
export type EntityField = Omit<EditorField, 'kind'> & {
  kind: EditorField['kind'] | 'choice' | 'choices' | 'voice';
  /** What a choice or choices field may hold. */
  options?: readonly string[];
  /** Longest text (characters). */
  maxLength?: number;
};

export type EntityCollection = 'characters' | 'items' | 'places';

const CHARACTER_FIELDS: readonly EntityField[] = [
  { key: 'name', label: 'Name', kind: 'text', required: true, maxLength: 120, help: 'What players call the character; the same in both languages (add French spellings as aliases).' },
  { key: 'description', label: 'Description', kind: 'text', perLanguage: true, help: 'Who the character is, shown on their card.' },
  { key: 'base_attack', label: 'Attack', kind: 'integer', required: true, min: 0, help: 'Damage a strike of this character deals before items.' },
  { key: 'base_health', label: 'Health', kind: 'integer', required: true, min: 0, help: 'Health the character starts a battle with.' },
  { key: 'card_type', label: 'Card type', kind: 'choice', options: CARD_RARITIES, help: 'The card\'s rarity: its frame and how it is upgraded.' },
  { key: 'is_enrolled_by_default', label: 'In the team from the start', kind: 'boolean', help: 'Every run starts with this character as a card.' },
  { key: 'style_tags', label: 'Fighting styles', kind: 'choices', options: STYLE_TAGS, help: 'Styles whose battle words make this character\'s actions thematic.' },
  { key: 'properties', label: 'Properties', kind: 'strings', help: 'Traits on the card (one a line).' },
  { key: 'aliases', label: 'Other names', kind: 'strings', help: 'Nicknames or French spellings players may call the character by (one a line).' },
  { key: 'voice', label: 'Voice', kind: 'voice', help: 'The synthetic voice: variant, pitch (0-99) and rate (80-450 words a minute).' },
  { key: 'media', label: 'Pictures', kind: 'media', help: 'The character\'s pictures (card and conversation).' },
  { key: 'team_media', label: 'Team pictures', kind: 'media', help: 'Pictures shown when the character is in the team.' },
];

const ITEM_FIELDS: readonly EntityField[] = [
  { key: 'name', label: 'Name', kind: 'text', required: true, perLanguage: true, help: 'The item\'s name, said by players to take it.' },
  { key: 'description', label: 'Description', kind: 'text', perLanguage: true, help: 'What the item is, shown on its card.' },
  { key: 'attack_bonus', label: 'Attack bonus', kind: 'integer', help: 'Added to the attack of the character who holds it.' },
  { key: 'defense_bonus', label: 'Defence bonus', kind: 'integer', help: 'Taken off the damage the holder receives.' },
  { key: 'rarity', label: 'Rarity', kind: 'choice', options: ITEM_RARITIES, help: 'How rare the item is.' },
  { key: 'is_acquired_by_default', label: 'Owned from the start', kind: 'boolean', help: 'Every run starts with this item.' },
  { key: 'properties', label: 'Properties', kind: 'strings', help: 'Traits on the item\'s card (one a line).' },
  { key: 'aliases', label: 'Other names', kind: 'strings', help: 'Other words players may call the item by (one a line).' },
  { key: 'media', label: 'Pictures', kind: 'media', help: 'The item\'s pictures.' },
];

const PLACE_FIELDS: readonly EntityField[] = [
  { key: 'name', label: 'Name', kind: 'text', required: true, perLanguage: true, help: 'The place\'s name.' },
  { key: 'media', label: 'Backgrounds', kind: 'media', help: 'Backgrounds of the moments that happen here.' },
];

/** Each collection's fields, in form order. */
export const ENTITY_FIELDS: Readonly<Record<EntityCollection, readonly EntityField[]>> = {
  characters: CHARACTER_FIELDS,
  items: ITEM_FIELDS,
  places: PLACE_FIELDS,
};

/** What a new entity of the collection holds: an id, a name, and the required numbers at 0. */
export function newEntity(collection: EntityCollection, id: string, name: string): Record<string, unknown> {
  if (collection === 'characters') return { id, name, base_attack: 0, base_health: 1 };
  return { id, name: { en: name } };
}
