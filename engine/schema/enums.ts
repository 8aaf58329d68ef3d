// Every enumeration named in the two spec documents, as `as const` tuples with zod schemas and derived types.
// The schemas are marked pure so that a bundle using only the constants (the web app's catalogue) leaves zod out.
import { z } from 'zod';
import type { LANG_CODE, LOOP_STATUS } from './enum-values.js';
import {
  AWARD_SOURCES, BATTLE_PHASES, CARD_RARITIES, EMOTIONS, GOAL_TYPES, ITEM_RARITIES, MOMENT_TYPES, NOTIFICATION_KINDS, STYLE_TAGS,
} from './enum-values.js';

export * from './enum-values.js';

export const MomentType = /* @__PURE__ */ z.enum(MOMENT_TYPES);
export type MomentType = z.infer<typeof MomentType>;

// Written out (not read from LOOP_STATUS) so the schema stays a pure call a bundler can drop; the check below keeps
// the two lists equal.
export const LoopStatus = /* @__PURE__ */ z.enum(['loopStatusOnGoing', 'loopStatusWon', 'loopStatusLost']);
export type LoopStatus = z.infer<typeof LoopStatus>;

export const CardRarity = /* @__PURE__ */ z.enum(CARD_RARITIES);
export type CardRarity = z.infer<typeof CardRarity>;
export const CardType = /* @__PURE__ */ z.enum(['Normal', 'Prismatic', 'Onyx', 'Crystal', 'Marble', 'Steel', 'Golden', 'Holographic', 'permanent']);
export type CardType = z.infer<typeof CardType>;

export const ItemRarity = /* @__PURE__ */ z.enum(ITEM_RARITIES);
export type ItemRarity = z.infer<typeof ItemRarity>;

export const Emotion = /* @__PURE__ */ z.enum(EMOTIONS);
export type Emotion = z.infer<typeof Emotion>;

export const Intensity = /* @__PURE__ */ z.union([/* @__PURE__ */ z.literal(1), /* @__PURE__ */ z.literal(2), /* @__PURE__ */ z.literal(3), /* @__PURE__ */ z.literal(4), /* @__PURE__ */ z.literal(5)]);
export type Intensity = z.infer<typeof Intensity>;

export const GoalType = /* @__PURE__ */ z.enum(GOAL_TYPES);
export type GoalType = z.infer<typeof GoalType>;

export const MediaKind = /* @__PURE__ */ z.enum(['image', 'video']);
export type MediaKind = z.infer<typeof MediaKind>;

/** Stored languages (accounts spec §3); the game itself offers English and French. */
export const Language = /* @__PURE__ */ z.enum(['english', 'french', 'spanish']);
export type Language = z.infer<typeof Language>;
export const PlayLanguage = /* @__PURE__ */ z.enum(['english', 'french']);
export type PlayLanguage = z.infer<typeof PlayLanguage>;
export type LangCode = (typeof LANG_CODE)[PlayLanguage];

export const AwardSource = /* @__PURE__ */ z.enum(AWARD_SOURCES);
export type AwardSource = z.infer<typeof AwardSource>;

export const StyleTag = /* @__PURE__ */ z.enum(STYLE_TAGS);
export type StyleTag = z.infer<typeof StyleTag>;

export const RatingKey = /* @__PURE__ */ z.enum(['ESRB_10', 'ESRB_ADULT', 'ESRB_EVERYONE', 'ESRB_MATURE', 'ESRB_PENDING', 'ESRB_Teen']);
export type RatingKey = z.infer<typeof RatingKey>;

export const Level = /* @__PURE__ */ z.enum(['Low', 'Medium', 'High']);
export type Level = z.infer<typeof Level>;

export const RewardType = /* @__PURE__ */ z.enum(['item', 'character', 'dynamic_item']);
export type RewardType = z.infer<typeof RewardType>;

export const BattlePhase = /* @__PURE__ */ z.enum(BATTLE_PHASES);
export type BattlePhase = z.infer<typeof BattlePhase>;

export const NotificationKind = /* @__PURE__ */ z.enum(NOTIFICATION_KINDS);
export type NotificationKind = z.infer<typeof NotificationKind>;

// Compile-time checks that the written-out schemas above match their constants.
type Assert<T extends true> = T;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export type _LoopStatusMatches = Assert<Same<LoopStatus, (typeof LOOP_STATUS)[keyof typeof LOOP_STATUS]>>;
export type _CardTypeMatches = Assert<Same<CardType, (typeof CARD_RARITIES)[number] | 'permanent'>>;
