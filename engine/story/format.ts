// The story file format: one JSON file per story holding everything the spec's blueprint tables hold, plus what
// the scripted brain needs to speak and to recognise the player. A JSON Schema is generated from these zod schemas.
import { z } from 'zod';
import {
  AwardSource, CardRarity, Emotion, GoalType, Intensity, ItemRarity, Level, MediaKind, MomentType, RatingKey,
  RewardType, StyleTag,
} from '../schema/enums.js';
import { IsoTime, UuidV4 } from '../schema/ids.js';
import { MAX_CATALOGUE_DESCRIPTION_CHARS, Text, textOf } from './text.js';

export const Media = z.object({ kind: MediaKind.default('image'), url: z.string().min(1).max(2000) }).strict();
export type Media = z.infer<typeof Media>;

/** Phrases the brain recognises, per language. Each phrase is a list of words that must all be heard (fuzzily). */
export const Phrases = z.object({ en: z.array(z.string().min(1)).min(1), fr: z.array(z.string().min(1)).optional() }).strict();
export type Phrases = z.infer<typeof Phrases>;

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

export const Transition = z.object({
  next_moment_id: UuidV4,
  /** Branch label, shown in graphs; at a Crossroad it is also what the player may say. */
  label: Text.optional(),
  /** Phrases choosing this branch at a Crossroad. */
  match: Phrases.optional(),
  /** What the character answers when the player chooses this branch. */
  reply: z.array(Text).optional(),
}).strict();
export type Transition = z.infer<typeof Transition>;

/** An item made on the spot (reward_type dynamic_item); the brain picks the one whose phrases the player used. */
export const DynamicReward = z.object({
  id: UuidV4,
  name: Text,
  description: Text.optional(),
  attack_bonus: z.number().int().default(0),
  defense_bonus: z.number().int().default(0),
  properties: z.array(z.string().min(1)).default([]),
  rarity: ItemRarity.default('common'),
  match: Phrases.optional(),
}).strict();
export type DynamicReward = z.infer<typeof DynamicReward>;

export const BlueprintReward = z.object({
  id: UuidV4,
  reward_type: RewardType,
  item_ids: z.array(UuidV4).default([]),
  character_ids: z.array(UuidV4).default([]),
  dynamic_rewards: z.array(DynamicReward).default([]),
  /** Recorded as the item's source; defaults to the reward type ('character', 'item', 'dynamic_item'). */
  source: AwardSource.optional(),
}).strict();
export type BlueprintReward = z.infer<typeof BlueprintReward>;

export const BattleOpponent = z.object({
  character_id: UuidV4,
  /** Overrides of the blueprint character's base values for this battle. */
  health: z.number().int().min(1).optional(),
  attack: z.number().int().min(0).optional(),
}).strict();
export type BattleOpponent = z.infer<typeof BattleOpponent>;

/** A rule of the scripted brain: what the player may say, and what happens when they do. */
export const AnswerRule = z.object({
  id: z.string().min(1),
  match: Phrases,
  reply: z.array(Text).min(1),
  emotion: Emotion.optional(),
  intensity: Intensity.optional(),
  /** complete: the goal is met; progress: a step towards it (facts gathered); wrong: a recognised wrong answer. */
  outcome: z.enum(['complete', 'progress', 'wrong']).default('complete'),
  score: z.number().int().min(0).max(100).default(60),
  perfect: z.boolean().default(false),
  /** Facts the player learns (kept in player_facts); 'progress' answers complete the moment once all are known. */
  facts: z.array(z.string().min(1)).default([]),
  next_moment_id: UuidV4.optional(),
}).strict();
export type AnswerRule = z.infer<typeof AnswerRule>;

export const UpgradeRules = z.object({
  /** The rarity given for each difficulty the player may choose (e.g. easy -> Prismatic, hard -> Golden). */
  difficulties: z.array(z.object({ level: z.enum(['easy', 'medium', 'hard']), rarity: CardRarity, match: Phrases, riddle: Text, answers: Phrases }).strict()).min(1),
  min_bet: z.number().int().min(1).default(1),
  max_bet: z.number().int().min(1).default(5),
  /** Properties taken from the upgraded card; they come back as an item of source 'sacrificed_properties'. */
  sacrifice_properties: z.boolean().default(false),
  /** An item given on success (source 'upgrade'). */
  reward_item_id: UuidV4.optional(),
}).strict();
export type UpgradeRules = z.infer<typeof UpgradeRules>;

export const BlueprintMoment = z.object({
  id: UuidV4,
  name: Text,
  /** In-story date shown on the start screen (ISO date or date-time). */
  date: z.string().min(1),
  type: MomentType,
  place_id: UuidV4.optional(),
  /** The character who speaks in this moment. */
  character_id: UuidV4.optional(),
  goal_type: GoalType.optional(),
  goal: Text.optional(),
  transitions: z.array(Transition).default([]),
  skip_to_moment_id: UuidV4.optional(),
  skip_after_run_number: z.number().int().optional(),
  show_after_run_number: z.number().int().optional(),
  skip_after_completion_count: z.number().int().optional(),
  display_randomly_probability: z.number().min(0).max(100).optional(),
  max_number_of_characters: z.number().int().min(0).optional(),
  rewards: z.array(BlueprintReward).default([]),
  opponents: z.array(BattleOpponent).default([]),
  score_threshold_for_award: z.number().int().min(0).max(100).optional(),
  /** An item given when the score reaches score_threshold_for_award (source 'perfect_answer'). */
  perfect_answer_item_id: UuidV4.optional(),
  upgrade: UpgradeRules.optional(),
  speech_patterns: z.array(z.string()).default([]),
  default_emotion: Emotion.default('normal'),
  default_emotion_intensity: Intensity.default(1),
  hint: Text.optional(),
  do_not_display_character: z.boolean().default(false),
  sound: z.object({ url: z.string().min(1), volume: z.number().min(0).max(1).default(0.5) }).strict().optional(),
  media: z.array(Media).default([]),
  /** Lines the character opens the moment with (one is chosen, never the same twice in a row). */
  opening: z.array(Text).min(1),
  answers: z.array(AnswerRule).default([]),
  /**
   * Whole sentences players are expected to say here, per language ("Is anything missing?", "The tide caves"). The
   * offline recogniser listens for exactly these (plus decoys), so a moment where players speak should list at least
   * one per answer, branch and action; `looptale story lint-speech` checks that each is heard as the answer it gives.
   */
  say: Phrases.optional(),
  /** Replies when nothing the player said was recognised. */
  fallback: z.array(Text).default([]),
}).strict();
export type BlueprintMoment = z.infer<typeof BlueprintMoment>;

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
