// Row shapes of the player_* tables (accounts spec §3, game spec §3). Column names are the spec's.
import { z } from 'zod';
import { AwardSource, BattlePhase, CardType, ItemRarity, Language, LoopStatus } from './enums.js';
import { IsoTime, UuidV4 } from './ids.js';

export const PlayerStory = z.object({
  id: UuidV4,
  user_id: z.string().min(1),
  blueprint_story_id: UuidV4,
  language: Language,
  loop_number: z.number().int().min(1),
  loop_rank: z.number().int().min(1).max(7).nullable(),
  loop_status: LoopStatus,
  loop_current_number_of_interactions: z.number().int().min(0),
  loop_max_number_of_interactions: z.number().int().min(1),
  is_successful_run: z.boolean(),
  reset_progress: z.boolean().default(false),
  /** Story-maker mode without persistence: nothing was copied from the previous run. */
  is_story_maker: z.boolean().default(false),
  current_player_moment_id: UuidV4.nullable(),
  /** Performance counters the rank formula reads (engine/rules/rank.ts). */
  perfect_answers: z.number().int().min(0).default(0),
  battles_won: z.number().int().min(0).default(0),
  clean_battles_won: z.number().int().min(0).default(0),
  burn_outs: z.number().int().min(0).default(0),
  created_at: IsoTime,
  ended_at: IsoTime.nullable().default(null),
});
export type PlayerStory = z.infer<typeof PlayerStory>;

export const DialogueEntry = z.object({
  role: z.enum(['player', 'model']),
  text: z.string(),
  isPerfectAnswer: z.boolean().default(false),
  isCacheHit: z.boolean().default(false),
});
export type DialogueEntry = z.infer<typeof DialogueEntry>;

export const BattleAction = z.object({
  turn_number: z.number().int().min(1),
  actor_id: z.string(),
  actor_name: z.string(),
  target_id: z.string(),
  target_name: z.string(),
  action: z.string(),
  was_thematic: z.boolean(),
  damage: z.number().int().min(0),
  recoil_damage: z.number().int().min(0),
});
export type BattleAction = z.infer<typeof BattleAction>;

export const PlayerMoment = z.object({
  id: UuidV4,
  player_story_id: UuidV4,
  blueprint_moment_id: UuidV4,
  user_id: z.string().min(1),
  dialogue_history: z.array(DialogueEntry),
  battle_action_history: z.array(BattleAction),
  battle_phase: BattlePhase.default('initial'),
  player_facts: z.array(z.string()),
  /** Battle: the opponent strike the player must now defend against. */
  pending_strike: z.object({ opponent_id: z.string(), target_id: z.string() }).nullable().default(null),
  /** Battle: team members burned out during this moment (a battle won with none is a clean win). */
  burn_outs: z.number().int().min(0).default(0),
  /** Upgrade moments: the bet as declared so far; placed (bet spent) once character, bet and level are known. */
  upgrade_bet: z.object({
    character_id: z.string().nullable(),
    bet: z.number().int().nullable(),
    level: z.string().nullable(),
    placed: z.boolean(),
  }).nullable().default(null),
  is_started: z.boolean().default(false),
  skipped_reason: z.string().nullable().default(null),
  completed_at: IsoTime.nullable(),
  succeeded_at: IsoTime.nullable(),
  created_at: IsoTime,
});
export type PlayerMoment = z.infer<typeof PlayerMoment>;

export const PlayerCharacter = z.object({
  id: UuidV4,
  user_id: z.string().min(1),
  blueprint_character_id: UuidV4.nullable(),
  player_story_id: UuidV4,
  name: z.string(),
  current_attack: z.number().int().min(0),
  current_health: z.number().int().min(0),
  max_health: z.number().int().min(0),
  properties: z.array(z.string()),
  card_type: CardType,
  enrolled_in_blueprint_moment_id: UuidV4.nullable(),
  is_selected_in_assemble: z.boolean(),
  /** Set when the character is a permanent card brought into this run. */
  permanent_character_id: UuidV4.nullable().default(null),
  burned_out_at: IsoTime.nullable().default(null),
  created_at: IsoTime,
});
export type PlayerCharacter = z.infer<typeof PlayerCharacter>;

export const PlayerItem = z.object({
  id: UuidV4,
  user_id: z.string().min(1),
  player_story_id: UuidV4,
  blueprint_item_id: UuidV4.nullable(),
  name: z.string(),
  description: z.string(),
  attack_bonus: z.number().int(),
  defense_bonus: z.number().int(),
  properties: z.array(z.string()),
  rarity: ItemRarity,
  source: AwardSource,
  acquired_in_blueprint_moment_id: UuidV4.nullable(),
  permanent_item_id: UuidV4.nullable().default(null),
  created_at: IsoTime,
});
export type PlayerItem = z.infer<typeof PlayerItem>;

export const PlayerCharacterItem = z.object({
  id: UuidV4,
  player_character_id: UuidV4,
  player_item_id: UuidV4,
  is_equipped: z.boolean(),
  equipped_at: IsoTime.nullable(),
  equipped_in_moment_id: UuidV4.nullable(),
});
export type PlayerCharacterItem = z.infer<typeof PlayerCharacterItem>;

/** An opponent's health within one player moment (opponent health by moment, character and player moment). */
export const PlayerOpponent = z.object({
  id: UuidV4,
  player_moment_id: UuidV4,
  blueprint_moment_id: UuidV4,
  blueprint_character_id: UuidV4,
  name: z.string(),
  current_health: z.number().int().min(0),
  base_health: z.number().int().min(0),
  current_attack: z.number().int().min(0),
  base_attack: z.number().int().min(0),
  properties: z.array(z.string()),
});
export type PlayerOpponent = z.infer<typeof PlayerOpponent>;

export const Ticket = z.object({
  id: UuidV4,
  user_id: z.string().min(1),
  blueprint_story_id: UuidV4,
  is_redeemed: z.boolean(),
  redeemed_at: IsoTime.nullable(),
  earned_at: IsoTime,
  earned_in_player_story_id: UuidV4.nullable().default(null),
  created_at: IsoTime,
});
export type Ticket = z.infer<typeof Ticket>;

export const TicketWithStory = Ticket.extend({
  story: z.object({ id: UuidV4, name: z.string(), story_logo_image: z.string() }),
});
export type TicketWithStory = z.infer<typeof TicketWithStory>;

export const PermanentCharacter = z.object({
  id: UuidV4,
  user_id: z.string().min(1),
  blueprint_character_id: UuidV4.nullable(),
  name: z.string(),
  current_attack: z.number().int().min(0),
  current_health: z.number().int().min(0),
  max_health: z.number().int().min(0),
  properties: z.array(z.string()),
  card_type: z.literal('permanent'),
  source_player_character_id: UuidV4.nullable(),
  redeemed_ticket_id: UuidV4,
  created_at: IsoTime,
});
export type PermanentCharacter = z.infer<typeof PermanentCharacter>;

/**
 * An item of a permanent character; with player_permanent_character_id null it is a permanent item of its own
 * (a golden ticket redeemed for an item), acquired in every new run.
 */
export const PermanentCharacterItem = z.object({
  id: UuidV4,
  user_id: z.string().min(1),
  player_permanent_character_id: UuidV4.nullable(),
  name: z.string(),
  description: z.string(),
  attack_bonus: z.number().int(),
  defense_bonus: z.number().int(),
  properties: z.array(z.string()),
  rarity: ItemRarity.default('common'),
  source_blueprint_item_id: UuidV4.nullable(),
  source_player_item_id: UuidV4.nullable(),
  redeemed_ticket_id: UuidV4.nullable().default(null),
  created_at: IsoTime,
});
export type PermanentCharacterItem = z.infer<typeof PermanentCharacterItem>;

export const PermanentCharacterMedia = z.object({
  id: UuidV4,
  player_permanent_character_id: UuidV4,
  media_url: z.string(),
  created_at: IsoTime,
});
export type PermanentCharacterMedia = z.infer<typeof PermanentCharacterMedia>;

/** The media tables share one shape: media_url plus the ids they link. */
export const MediaRow = z.object({
  id: UuidV4,
  media_url: z.string(),
  media_kind: z.enum(['image', 'video']).default('image'),
  blueprint_story_id: UuidV4.nullable().default(null),
  blueprint_character_id: UuidV4.nullable().default(null),
  blueprint_item_id: UuidV4.nullable().default(null),
  blueprint_place_id: UuidV4.nullable().default(null),
  player_character_id: UuidV4.nullable().default(null),
  player_item_id: UuidV4.nullable().default(null),
  player_story_id: UuidV4.nullable().default(null),
  created_at: IsoTime,
});
export type MediaRow = z.infer<typeof MediaRow>;
export const MEDIA_TABLES = [
  'blueprint_character_team_medias', 'blueprint_character_medias', 'blueprint_item_medias', 'blueprint_place_medias',
  'player_character_medias', 'player_item_medias',
] as const;
export type MediaTable = (typeof MEDIA_TABLES)[number];
