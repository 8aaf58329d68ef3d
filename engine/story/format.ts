// The story file format: one JSON file per story holding everything the spec's blueprint tables hold, plus what
// the scripted brain needs to speak and to recognise the player. A JSON Schema is generated from these zod schemas.
// A moment is one member of a union told apart by `type`: the fields every moment has (moment-parts.ts) and its type's
// own fields, declared in its module (engine/moments/<type>.ts) and joined in the registry.
import { z } from 'zod';
import { CardRarity, ItemRarity, Level, RatingKey, StyleTag } from '../schema/enums.js';
import { IsoTime, UuidV4 } from '../schema/ids.js';
import { MOMENT_UNION } from '../moments/registry.js';
import { Media, Phrases } from './moment-parts.js';
import { MAX_CATALOGUE_DESCRIPTION_CHARS, Text, textOf } from './text.js';

export { AnswerRule, Media, Phrases, Transition } from './moment-parts.js';
export { BattleOpponent } from '../moments/battle.js';
export { BlueprintReward, DynamicReward } from '../moments/reward.js';
export { UpgradeRules } from '../moments/upgrade.js';

/** A moment of the story: one member per moment type, told apart by `type`. */
export const BlueprintMoment = MOMENT_UNION;
export type BlueprintMoment = z.infer<typeof BlueprintMoment>;

export const Voice = z.object({
  variant: z.string().default('m3'),
  pitch: z.number().int().min(0).max(99).default(50),
  rate: z.number().int().min(80).max(450).default(175),
}).strict();
export type Voice = z.infer<typeof Voice>;

export const BlueprintCharacter = z.object({
  id: UuidV4,
  name: z.string().min(1).max(120),
  description: Text.optional(),
  base_attack: z.number().int().min(0),
  base_health: z.number().int().min(0),
  properties: z.array(z.string().min(1)).default([]),
  style_tags: z.array(StyleTag).default([]),
  is_enrolled_by_default: z.boolean().default(false),
  card_type: CardRarity.default('Normal'),
  /** Other names the player may call this character by (nicknames, French spellings). */
  aliases: z.array(z.string().min(1)).default([]),
  media: z.array(Media).default([]),
  team_media: z.array(Media).default([]),
  voice: Voice.optional(),
}).strict();
export type BlueprintCharacter = z.infer<typeof BlueprintCharacter>;

export const BlueprintItem = z.object({
  id: UuidV4,
  name: Text,
  description: Text.optional(),
  attack_bonus: z.number().int().default(0),
  defense_bonus: z.number().int().default(0),
  properties: z.array(z.string().min(1)).default([]),
  rarity: ItemRarity.default('common'),
  is_acquired_by_default: z.boolean().default(false),
  aliases: z.array(z.string().min(1)).default([]),
  media: z.array(Media).default([]),
}).strict();
export type BlueprintItem = z.infer<typeof BlueprintItem>;

export const BlueprintPlace = z.object({ id: UuidV4, name: Text, media: z.array(Media).default([]) }).strict();
export type BlueprintPlace = z.infer<typeof BlueprintPlace>;

export const RankLetter = z.enum(['S', 'A', 'B', 'C', 'D', 'E', 'F']);
export type RankLetter = z.infer<typeof RankLetter>;

/** An image path or URL. */
const MediaUrl = z.string().max(2000);
/** What the catalogue shows of a story stays small: it is sent whole with every catalogue request. */
const Tag = z.string().max(50);

export const Catalogue = z.object({
  background_image: MediaUrl.default(''),
  story_logo_image: MediaUrl.default(''),
  sample_images: z.array(MediaUrl).max(12).default([]),
  text_rgba_color: z.string().max(64).default('rgba(255,255,255,1)'),
  background_rgba_color: z.string().max(64).default('rgba(0,0,0,1)'),
  control_rgba_color: z.string().max(64).default('rgba(255,255,255,1)'),
  description: textOf(MAX_CATALOGUE_DESCRIPTION_CHARS),
  esbr_rating: RatingKey.default('ESRB_PENDING'),
  esbr_tags: z.array(Tag).max(20).default([]),
  genre_tags: z.array(Tag).max(20).default([]),
  interactivity_level: Level.default('Medium'),
  branching_level: Level.default('Medium'),
  estimated_minute_duration: z.number().int().min(1).default(15),
  is_coming_soon: z.boolean().default(false),
  sound_intro: MediaUrl.optional(),
  positive_count: z.number().int().min(0).default(0),
  negative_count: z.number().int().min(0).default(0),
  created_at: IsoTime,
}).strict();
export type Catalogue = z.infer<typeof Catalogue>;

/** Battle words by style: an action containing them is thematic when the actor has that style tag. */
export const BattleVerbs = z.object({
  attack: Phrases,
  defend: Phrases,
  styles: z.array(z.object({ tag: StyleTag, match: Phrases }).strict()).default([]),
}).strict();
export type BattleVerbs = z.infer<typeof BattleVerbs>;

export const Story = z.object({
  $schema: z.string().optional(),
  format_version: z.literal(1),
  id: UuidV4,
  name: z.string().min(1).max(120),
  catalogue: Catalogue,
  loop_max_number_of_interactions: z.number().int().min(1).optional(),
  /** Minimum rank points for each rank of a won run (see engine/rules/rank.ts); defaults apply when absent. */
  rank_thresholds: z.object({ S: z.number(), A: z.number(), B: z.number(), C: z.number(), D: z.number() }).strict().optional(),
  /** Items given when a run ends with at least this rank (source 'rank_achieved'). */
  rank_rewards: z.array(z.object({ rank: RankLetter, item_id: UuidV4 }).strict()).default([]),
  first_moment_id: UuidV4,
  characters: z.array(BlueprintCharacter),
  items: z.array(BlueprintItem).default([]),
  places: z.array(BlueprintPlace).default([]),
  moments: z.array(BlueprintMoment).min(1),
  battle_verbs: BattleVerbs.optional(),
  /** Words never to be taken as answers, used as decoys by speech recognition grammars. */
  decoys: Phrases.optional(),
}).strict();
export type Story = z.infer<typeof Story>;
export type StoryInput = z.input<typeof Story>;
