// Every enumeration named in the two spec documents, as `as const` tuples with zod schemas and derived types.
// The schemas are marked pure so that a bundle using only the constants (the web app's catalogue) leaves zod out.
import { z } from 'zod';

export const MOMENT_TYPES = [
  'Monologue', 'Learn', 'Test', 'Crossroad', 'Teamwork', 'Reward', 'Battle', 'Equip', 'Epilogue', 'Upgrade', 'Assemble', 'Dead End',
] as const;
export const MomentType = /* @__PURE__ */ z.enum(MOMENT_TYPES);
export type MomentType = z.infer<typeof MomentType>;

/** Loop status values exactly as stored (accounts spec §3). */
export const LOOP_STATUS = { ongoing: 'loopStatusOnGoing', won: 'loopStatusWon', lost: 'loopStatusLost' } as const;
// Written out (not read from LOOP_STATUS) so the schema stays a pure call a bundler can drop; the check below keeps
// the two lists equal.
export const LoopStatus = /* @__PURE__ */ z.enum(['loopStatusOnGoing', 'loopStatusWon', 'loopStatusLost']);
export type LoopStatus = z.infer<typeof LoopStatus>;

/** Card rarities from lowest to highest; 'permanent' is only for golden-ticket cards. */
export const CARD_RARITIES = ['Normal', 'Prismatic', 'Onyx', 'Crystal', 'Marble', 'Steel', 'Golden', 'Holographic'] as const;
export const CardRarity = /* @__PURE__ */ z.enum(CARD_RARITIES);
export type CardRarity = z.infer<typeof CardRarity>;
export const CardType = /* @__PURE__ */ z.enum(['Normal', 'Prismatic', 'Onyx', 'Crystal', 'Marble', 'Steel', 'Golden', 'Holographic', 'permanent']);
export type CardType = z.infer<typeof CardType>;

/** Item rarities: the lower-case variants the spec mentions, 'common' being the default. */
export const ITEM_RARITIES = ['common', 'normal', 'rare', 'special', 'epic', 'legendary'] as const;
export const ItemRarity = /* @__PURE__ */ z.enum(ITEM_RARITIES);
export type ItemRarity = z.infer<typeof ItemRarity>;

export const EMOTIONS = ['normal', 'happiness', 'sadness', 'anger', 'fear', 'disgust', 'surprise'] as const;
export const Emotion = /* @__PURE__ */ z.enum(EMOTIONS);
export type Emotion = z.infer<typeof Emotion>;

export const INTENSITY_LABELS = { 1: 'slightly', 2: 'somewhat', 3: 'moderately', 4: 'very', 5: 'totally' } as const;
export const Intensity = /* @__PURE__ */ z.union([/* @__PURE__ */ z.literal(1), /* @__PURE__ */ z.literal(2), /* @__PURE__ */ z.literal(3), /* @__PURE__ */ z.literal(4), /* @__PURE__ */ z.literal(5)]);
export type Intensity = z.infer<typeof Intensity>;

export const GOAL_TYPES = ['convince', 'solve', 'reveal', 'teach', 'program'] as const;
export const GoalType = /* @__PURE__ */ z.enum(GOAL_TYPES);
export type GoalType = z.infer<typeof GoalType>;

export const MediaKind = /* @__PURE__ */ z.enum(['image', 'video']);
export type MediaKind = z.infer<typeof MediaKind>;

/** Stored languages (accounts spec §3); the game itself offers English and French. */
export const Language = /* @__PURE__ */ z.enum(['english', 'french', 'spanish']);
export type Language = z.infer<typeof Language>;
export const PlayLanguage = /* @__PURE__ */ z.enum(['english', 'french']);
export type PlayLanguage = z.infer<typeof PlayLanguage>;
export const LANG_CODE = { english: 'en', french: 'fr' } as const satisfies Record<PlayLanguage, string>;
export type LangCode = (typeof LANG_CODE)[PlayLanguage];

export const AWARD_SOURCES = [
  'character', 'item', 'dynamic_item', 'upgrade', 'perfect_answer', 'free', 'sacrificed_properties', 'rank_achieved',
] as const;
export const AwardSource = /* @__PURE__ */ z.enum(AWARD_SOURCES);
export type AwardSource = z.infer<typeof AwardSource>;

export const STYLE_TAGS = [
  'cinematic', 'theatrical', 'elegant', 'creative', 'unexpected', 'peaceful', 'aggressive', 'stealthy', 'chaotic',
  'emotional', 'humorous', 'scary', 'efficient', 'complex',
] as const;
export const StyleTag = /* @__PURE__ */ z.enum(STYLE_TAGS);
export type StyleTag = z.infer<typeof StyleTag>;

export const RATING_LABELS = {
  ESRB_10: 'Everyone 10+',
  ESRB_ADULT: 'Adult Only 18+',
  ESRB_EVERYONE: 'Everyone',
  ESRB_MATURE: 'Mature 17+',
  ESRB_PENDING: 'Rating Pending',
  ESRB_Teen: 'Teen',
} as const;
export const RatingKey = /* @__PURE__ */ z.enum(['ESRB_10', 'ESRB_ADULT', 'ESRB_EVERYONE', 'ESRB_MATURE', 'ESRB_PENDING', 'ESRB_Teen']);
export type RatingKey = z.infer<typeof RatingKey>;

export const Level = /* @__PURE__ */ z.enum(['Low', 'Medium', 'High']);
export type Level = z.infer<typeof Level>;

export const RewardType = /* @__PURE__ */ z.enum(['item', 'character', 'dynamic_item']);
export type RewardType = z.infer<typeof RewardType>;

/** Battle phases carried by battle_state_next_phase; '' (no phase) and 'initial' both mean a fresh battle. */
export const BATTLE_PHASES = ['initial', 'player_attack_input', 'ai_attack_selection', 'player_defense_input'] as const;
export const BattlePhase = /* @__PURE__ */ z.enum(BATTLE_PHASES);
export type BattlePhase = z.infer<typeof BattlePhase>;

export const NOTIFICATION_KINDS = ['perfect', 'free', 'sacrificed_properties', 'upgrade_progress', 'rank_achieved', 'card_modifier'] as const;
export const NotificationKind = /* @__PURE__ */ z.enum(NOTIFICATION_KINDS);
export type NotificationKind = z.infer<typeof NotificationKind>;

// Compile-time checks that the written-out schemas above match their constants.
type Assert<T extends true> = T;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export type _LoopStatusMatches = Assert<Same<LoopStatus, (typeof LOOP_STATUS)[keyof typeof LOOP_STATUS]>>;
export type _CardTypeMatches = Assert<Same<CardType, (typeof CARD_RARITIES)[number] | 'permanent'>>;
