// The parts of a moment every type shares: the fields every moment has (the base of each type's schema member, see
// engine/moments/<type>.ts) and the pieces they are made of. It imports no moment type, so each type's module can
// build its member from it and the story format can join the members into one union (engine/moments/registry.ts).
import { z } from 'zod';
import { Emotion, GoalType, Intensity, MediaKind, type MomentType } from '../schema/enums.js';
import { UuidV4 } from '../schema/ids.js';
import { Text } from './text.js';

export const Media = z.object({ kind: MediaKind.default('image'), url: z.string().min(1).max(2000) }).strict();
export type Media = z.infer<typeof Media>;

/** Phrases the brain recognises, per language. Each phrase is a list of words that must all be heard (fuzzily). */
export const Phrases = z.object({ en: z.array(z.string().min(1)).min(1), fr: z.array(z.string().min(1)).optional() }).strict();
export type Phrases = z.infer<typeof Phrases>;

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

/** The fields every moment has before its type. */
const HEAD = {
  id: UuidV4,
  name: Text,
  /** In-story date shown on the start screen (ISO date or date-time). */
  date: z.string().min(1),
};

/** The fields every moment has after its type (engine/moments/common.ts describes them for an editor form). */
const SHARED = {
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
  score_threshold_for_award: z.number().int().min(0).max(100).optional(),
  /** An item given when the score reaches score_threshold_for_award (source 'perfect_answer'). */
  perfect_answer_item_id: UuidV4.optional(),
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
  /** Where the studio's flow graph draws the moment (the author moved it there); the game ignores it. Absent: the
   *  graph lays the moment out itself. */
  position: z.object({ x: z.number().min(-1e6).max(1e6), y: z.number().min(-1e6).max(1e6) }).strict().optional(),
};

/**
 * One moment type's member of the story format's moment union: the fields every moment has, `type` fixed to this
 * type, and the type's own fields. Strict: a field of another type (a Test moment's `opponents`) is refused.
 */
export function momentMember<T extends MomentType, const E extends z.ZodRawShape = Record<never, never>>(type: T, own?: E) {
  return z.strictObject({ ...HEAD, type: z.literal(type), ...SHARED, ...(own ?? ({} as E)) });
}
