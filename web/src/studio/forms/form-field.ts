// The fields a studio form is built from: a moment type's EditorFields (engine/moments/), an entity's EntityFields
// (engine/story/entity-fields.ts), and the parts inside the structured kinds (a transition, an answer, a reward...),
// described here the same way from the story format's schemas (engine/story/moment-parts.ts, engine/moments/*.ts), so
// one widget per kind renders any of them and a list or an object of parts is the same component whatever it holds.
import type { EntityField } from '../../../../engine/story/entity-fields.js';
import { CARD_RARITIES, ITEM_RARITIES, REWARD_TYPES_FOR_FORMS } from './form-options.js';
import { MAX_TEXT_CHARS } from '../../../../engine/story/text.js';

/** A field of a form: an entity or moment field, or a part of one. `list`: many of `fields`; `object`: one. */
export type FormField = Omit<EntityField, 'kind'> & {
  kind: EntityField['kind'] | 'list' | 'object' | 'items' | 'characters' | 'id';
  /** The parts of a list's entries or of an object. */
  fields?: readonly FormField[];
  /** A new entry of a list or a new object (ids made by `newId`; references to the story's first other entity). */
  make?: (c: MakeCtx) => Record<string, unknown>;
  /** The label of one entry of a list ("Transition 2"). */
  entry?: string;
};

/** What making a new entry may read. */
export type MakeCtx = { newId: () => string; doc: Record<string, unknown>; selfId: string };

/** The first id of a collection other than `not` ('' when there is none: the validator then says so on the field). */
function firstId(doc: Record<string, unknown>, collection: string, not = ''): string {
  const list = doc[collection];
  const e = Array.isArray(list) ? list.find((x: unknown) => typeof x === 'object' && x !== null && typeof (x as { id?: unknown }).id === 'string' && (x as { id: string }).id !== not) as { id: string } | undefined : undefined;
  return e?.id ?? '';
}

const TEXT_MAX = MAX_TEXT_CHARS;

const TRANSITION: readonly FormField[] = [
  { key: 'next_moment_id', label: 'Goes to', kind: 'moment', required: true, help: 'The moment this transition leads to.' },
  { key: 'label', label: 'Label', kind: 'text', perLanguage: true, maxLength: TEXT_MAX, help: 'Shown on the graph; at a Crossroad, also what the player may say.' },
  { key: 'match', label: 'Words choosing it', kind: 'phrases', perLanguage: true, help: 'At a Crossroad: phrases (one a line) that choose this branch.' },
  { key: 'reply', label: 'Replies', kind: 'texts', perLanguage: true, maxLength: TEXT_MAX, help: 'What the character answers when this branch is chosen.' },
];

const ANSWER: readonly FormField[] = [
  { key: 'id', label: 'Answer id', kind: 'id', required: true, help: 'A name for this answer, unique in the moment.' },
  { key: 'match', label: 'What the player says', kind: 'phrases', required: true, perLanguage: true, help: 'Phrases (one a line); each is a list of words that must all be heard.' },
  { key: 'reply', label: 'Replies', kind: 'texts', required: true, min: 1, perLanguage: true, maxLength: TEXT_MAX, help: 'What the character answers; one is chosen.' },
  { key: 'outcome', label: 'Outcome', kind: 'choice', options: ['complete', 'progress', 'wrong'], help: 'complete: the goal is met; progress: a step towards it; wrong: a recognised wrong answer.' },
  { key: 'score', label: 'Score', kind: 'integer', min: 0, max: 100, help: 'How good the answer is (0-100); 60 when empty.' },
  { key: 'perfect', label: 'Perfect answer', kind: 'boolean', help: 'Counts as a perfect answer for the rank.' },
  { key: 'emotion', label: 'Emotion', kind: 'emotion', help: 'The speaker\'s emotion on this reply.' },
  { key: 'intensity', label: 'Intensity', kind: 'intensity', min: 1, max: 5, help: 'How strongly it shows.' },
  { key: 'facts', label: 'Facts learnt', kind: 'strings', help: 'Facts the player learns (one a line); progress answers complete the moment once all are known.' },
  { key: 'next_moment_id', label: 'Goes to', kind: 'moment', help: 'A moment this answer leads to instead of the first transition.' },
];

const DYNAMIC_REWARD: readonly FormField[] = [
  { key: 'name', label: 'Name', kind: 'text', required: true, perLanguage: true, maxLength: TEXT_MAX, help: 'The item\'s name.' },
  { key: 'description', label: 'Description', kind: 'text', perLanguage: true, maxLength: TEXT_MAX, help: 'What the item is.' },
  { key: 'attack_bonus', label: 'Attack bonus', kind: 'integer', help: 'Added to its holder\'s attack.' },
  { key: 'defense_bonus', label: 'Defence bonus', kind: 'integer', help: 'Taken off the damage its holder receives.' },
  { key: 'rarity', label: 'Rarity', kind: 'choice', options: ITEM_RARITIES, help: 'How rare the item is.' },
  { key: 'match', label: 'Words choosing it', kind: 'phrases', perLanguage: true, help: 'Phrases (one a line) by which the player picks this item.' },
];

const REWARD: readonly FormField[] = [
  { key: 'reward_type', label: 'Gives', kind: 'choice', required: true, options: REWARD_TYPES_FOR_FORMS, help: 'An item of the story, a character, or an item made on the spot (dynamic_item).' },
  { key: 'item_ids', label: 'Items', kind: 'items', help: 'The items the player may take.' },
  { key: 'character_ids', label: 'Characters', kind: 'characters', help: 'The characters the player may take.' },
  { key: 'dynamic_rewards', label: 'Items made on the spot', kind: 'list', entry: 'Item made on the spot', fields: DYNAMIC_REWARD, make: (c) => ({ id: c.newId(), name: { en: 'New item' } }), help: 'Items that exist only once given.' },
];

const OPPONENT: readonly FormField[] = [
  { key: 'character_id', label: 'Character', kind: 'character', required: true, help: 'The character fought.' },
  { key: 'health', label: 'Health', kind: 'integer', min: 1, help: 'Overrides the character\'s base health in this battle.' },
  { key: 'attack', label: 'Attack', kind: 'integer', min: 0, help: 'Overrides the character\'s base attack in this battle.' },
];

const DIFFICULTY: readonly FormField[] = [
  { key: 'level', label: 'Level', kind: 'choice', required: true, options: ['easy', 'medium', 'hard'], help: 'The difficulty\'s name.' },
  { key: 'rarity', label: 'Rarity given', kind: 'choice', required: true, options: CARD_RARITIES, help: 'The card\'s new rarity on success.' },
  { key: 'match', label: 'Words choosing it', kind: 'phrases', required: true, perLanguage: true, help: 'Phrases (one a line) choosing this difficulty.' },
  { key: 'riddle', label: 'Riddle', kind: 'text', required: true, perLanguage: true, maxLength: TEXT_MAX, help: 'The riddle asked.' },
  { key: 'answers', label: 'Right answers', kind: 'phrases', required: true, perLanguage: true, help: 'Phrases (one a line) that solve the riddle.' },
];

const NEW_DIFFICULTY = { level: 'easy', rarity: 'Prismatic', match: { en: ['easy'] }, riddle: { en: 'New riddle' }, answers: { en: ['answer'] } };

const UPGRADE: readonly FormField[] = [
  { key: 'difficulties', label: 'Difficulties', kind: 'list', required: true, min: 1, entry: 'Difficulty', fields: DIFFICULTY, help: 'What the player may bet on.',
    make: () => ({ ...NEW_DIFFICULTY }) },
  { key: 'min_bet', label: 'Smallest bet', kind: 'integer', min: 1, help: 'Interactions; 1 when empty.' },
  { key: 'max_bet', label: 'Largest bet', kind: 'integer', min: 1, help: 'Interactions; 5 when empty.' },
  { key: 'sacrifice_properties', label: 'Sacrifice properties', kind: 'boolean', help: 'The card\'s properties come back as an item.' },
  { key: 'reward_item_id', label: 'Item given', kind: 'item', help: 'An item given on success.' },
];

const MEDIA: readonly FormField[] = [
  { key: 'kind', label: 'Kind', kind: 'choice', options: ['image', 'video'], help: 'Image or video.' },
  { key: 'url', label: 'Address', kind: 'text', required: true, maxLength: 2000, help: 'A path on this server or a URL.' },
];

const SOUND: readonly FormField[] = [
  { key: 'url', label: 'Address', kind: 'text', required: true, maxLength: 2000, help: 'A path on this server or a URL.' },
  { key: 'volume', label: 'Volume', kind: 'number', min: 0, max: 1, help: 'From 0 to 1; 0.5 when empty.' },
];

const VOICE: readonly FormField[] = [
  { key: 'variant', label: 'Variant', kind: 'text', maxLength: 40, help: 'An eSpeak NG voice variant (m3 when empty).' },
  { key: 'pitch', label: 'Pitch', kind: 'integer', min: 0, max: 99, help: '0-99; 50 when empty.' },
  { key: 'rate', label: 'Rate', kind: 'integer', min: 80, max: 450, help: 'Words a minute, 80-450; 175 when empty.' },
];

/** How a structured kind is edited: a list of parts (with how to make a new one) or one object of parts. */
const COMPOUND: Partial<Record<FormField['kind'], Pick<FormField, 'kind' | 'fields' | 'make' | 'entry'>>> = {
  transitions: { kind: 'list', fields: TRANSITION, entry: 'Transition', make: (c) => ({ next_moment_id: firstId(c.doc, 'moments', c.selfId) }) },
  answers: { kind: 'list', fields: ANSWER, entry: 'Answer', make: (c) => ({ id: `answer-${c.newId().slice(0, 8)}`, match: { en: ['yes'] }, reply: [{ en: 'New reply' }] }) },
  rewards: { kind: 'list', fields: REWARD, entry: 'Reward', make: (c) => ({ id: c.newId(), reward_type: 'item', item_ids: [] }) },
  opponents: { kind: 'list', fields: OPPONENT, entry: 'Opponent', make: (c) => ({ character_id: firstId(c.doc, 'characters') }) },
  upgrade: { kind: 'object', fields: UPGRADE, make: () => ({ difficulties: [{ ...NEW_DIFFICULTY }] }) },
  media: { kind: 'list', fields: MEDIA, entry: 'Picture', make: () => ({ kind: 'image', url: 'new-picture.png' }) },
  sound: { kind: 'object', fields: SOUND, make: () => ({ url: 'new-sound.mp3' }) },
  voice: { kind: 'object', fields: VOICE, make: () => ({}) },
};

/** The field as the widgets render it: a structured kind becomes a list or an object of its parts. */
export function expand(field: FormField): FormField {
  const c = COMPOUND[field.kind];
  return c ? { ...field, ...c, make: field.make ?? c.make } : field;
}
