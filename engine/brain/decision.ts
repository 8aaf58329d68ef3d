// What a brain (scripted or LLM) decides for one turn. The engine validates it against the rules and the story,
// then produces the GameOutput; a brain never writes state.
import { z } from 'zod';
import { Emotion, Intensity, RewardType } from '../schema/enums.js';

export const BattleMove = z.object({
  kind: z.enum(['attack', 'defend']),
  /** Player character acting (attack) or defending (defend); defaults to the struck character when defending. */
  actor_id: z.string().optional(),
  /** Opponent targeted by an attack. */
  target_id: z.string().optional(),
  action: z.string().max(200),
  thematic: z.boolean(),
}).strict();
export type BattleMove = z.infer<typeof BattleMove>;

export const UpgradeMove = z.discriminatedUnion('stage', [
  z.object({
    stage: z.literal('bet'),
    character_id: z.string().optional(),
    bet: z.number().int().min(0).optional(),
    level: z.string().optional(),
  }).strict(),
  z.object({ stage: z.literal('answer'), correct: z.boolean() }).strict(),
]);
export type UpgradeMove = z.infer<typeof UpgradeMove>;

export const Decision = z.object({
  reply: z.string().max(2000),
  emotion: Emotion,
  intensity: Intensity,
  /** complete: the moment's goal is met; end_of_game: the run ends here (lost); continue: keep talking. */
  outcome: z.enum(['continue', 'complete', 'end_of_game']),
  next_moment_id: z.string().optional(),
  perfect: z.boolean().default(false),
  cache_hit: z.boolean().default(false),
  score: z.number().int().min(0).max(100).default(0),
  facts: z.array(z.string().max(200)).max(20).default([]),
  battle: BattleMove.optional(),
  award: z.object({ reward_type: RewardType, id: z.string() }).strict().optional(),
  equip: z.object({ character_id: z.string(), item_id: z.string() }).strict().optional(),
  upgrade: UpgradeMove.optional(),
  /** Assemble: player character ids the player named this turn (added to the live selection). */
  selection: z.array(z.string()).max(12).optional(),
  /** Which authored rule matched (for coverage and logs); '' when none. */
  matched: z.string().default(''),
  /** Line variants used, so the next visit never repeats the last one: key -> index. */
  lines_used: z.record(z.string(), z.number().int().min(0)).default({}),
}).strict();
export type Decision = z.infer<typeof Decision>;
export type DecisionInput = z.input<typeof Decision>;
