// Everything that can happen to a GameState. Events are validated data: they are what a transcript stores.
import { z } from 'zod';
import { Decision } from '../brain/decision.js';
import { PlayLanguage } from '../schema/enums.js';

export const CreateRunEvent = z.object({
  type: z.literal('run.create'),
  language: PlayLanguage,
  reset_progress: z.boolean().default(false),
  first_moment_id: z.string().optional(),
  /** Story-maker mode: nothing is copied from the previous run unless a persist flag says so. */
  story_maker: z.object({ persist_items: z.boolean(), persist_characters: z.boolean() }).strict().optional(),
  max_interactions: z.number().int().min(1).optional(),
}).strict();

export const TurnEvent = z.object({
  type: z.literal('turn'),
  input_id: z.string().min(1),
  is_starting_dialogue: z.boolean(),
  transcription: z.string().max(2000).default(''),
  decision: Decision,
  selected_character_ids: z.array(z.string()).max(12).optional(),
}).strict();

export const SelectEvent = z.object({ type: z.literal('assemble.select'), character_ids: z.array(z.string()).max(12) }).strict();

export const EndRunEvent = z.object({ type: z.literal('run.end') }).strict();

export const RedeemEvent = z.object({
  type: z.literal('ticket.redeem'),
  ticket_id: z.string(),
  card: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('character'), id: z.string() }).strict(),
    z.object({ kind: z.literal('item'), id: z.string() }).strict(),
  ]),
}).strict();

export const GameEvent = z.discriminatedUnion('type', [CreateRunEvent, TurnEvent, SelectEvent, EndRunEvent, RedeemEvent]);
export type GameEvent = z.infer<typeof GameEvent>;
export type GameEventInput = z.input<typeof GameEvent>;
export type CreateRunEvent = z.infer<typeof CreateRunEvent>;
export type TurnEvent = z.infer<typeof TurnEvent>;
export type RedeemEvent = z.infer<typeof RedeemEvent>;
