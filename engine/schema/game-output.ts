// GAME_OUTPUT: every field of game spec §3, plus the fields this server adds (input_id, ids, run counters,
// notifications) so that clients never have to recompute a rule.
import { z } from 'zod';
import { AwardSource, BattlePhase, CardType, Emotion, Intensity, LoopStatus } from './enums.js';
import { BattleAction } from './player.js';
import { Notification } from './notification.js';

export const OutputOpponent = z.object({
  opponent_id: z.string(),
  opponent_name: z.string(),
  current_health: z.number().int(),
  base_health: z.number().int(),
  current_attack: z.number().int(),
  base_attack: z.number().int(),
  properties: z.array(z.string()),
});
export type OutputOpponent = z.infer<typeof OutputOpponent>;

export const EquippedItem = z.object({
  id: z.string(),
  blueprint_item_id: z.string().nullable(),
  name: z.string(),
  description: z.string(),
  attack_bonus: z.number().int(),
  defense_bonus: z.number().int(),
  properties: z.array(z.string()),
  rarity: z.string(),
});
export type EquippedItem = z.infer<typeof EquippedItem>;

export const OutputCharacter = z.object({
  character_id: z.string(),
  blueprint_character_id: z.string().nullable(),
  character_name: z.string(),
  character_properties: z.array(z.string()),
  character_current_attack: z.number().int(),
  character_base_attack: z.number().int(),
  character_current_health: z.number().int(),
  character_base_health: z.number().int(),
  character_card_type: CardType,
  is_selected_in_assemble: z.boolean(),
  is_burned_out: z.boolean(),
  equipped_items: z.array(EquippedItem),
});
export type OutputCharacter = z.infer<typeof OutputCharacter>;

/** A choice the player may say or tap when the game did not catch them (tapping sends `text` as a transcription). */
export const SpokenChoice = z.object({
  text: z.string().max(300),
  /** What it does: 'say' (a sentence the story lists), 'answer', 'branch', 'reward', 'equip', 'team', 'attack',
   *  'defend', 'bet' or 'riddle'. */
  kind: z.string().max(20),
});
export type SpokenChoice = z.infer<typeof SpokenChoice>;

/**
 * Addition: the game did not catch what the player said (audio it could not understand well enough to act on). Nothing
 * changed and no interaction was counted. `dialogue` holds what is spoken: "Sorry, I didn't catch that." and the hint.
 */
export const NotCaught = z.object({
  /** Misses in a row at this moment: 1 on the first, 2 on the second... (a caught turn starts again from 0). */
  miss_number: z.number().int().min(1),
  /** Why: 'silence', 'not_heard' (nothing matched), 'decoy' (off-topic words), 'unsure' (not sure enough of the
   *  words), 'no_decision' (words that do nothing here). */
  reason: z.string().max(40),
  /** What can be said here, in a sentence (also spoken, after "Sorry, I didn't catch that."). */
  hint: z.string().max(500),
  /** From the second miss on: the choices to offer as a list to say or tap; empty on the first miss. */
  choices: z.array(SpokenChoice).max(20),
});
export type NotCaught = z.infer<typeof NotCaught>;

export const GameOutput = z.object({
  input_id: z.string(),
  player_story_id: z.string(),
  player_moment_id: z.string(),
  blueprint_moment_id: z.string(),
  is_starting_dialogue: z.boolean(),
  dialogue: z.string(),
  transcribed_player_answer: z.string(),
  complete_the_moment: z.boolean(),
  end_of_game: z.boolean(),
  next_moment_id: z.string(),
  player_facts: z.array(z.string()),
  was_perfect_answer: z.boolean(),
  was_cache_hit: z.boolean(),
  character_emotion_key: Emotion,
  character_emotion_strength: Intensity,
  battle_state_action_history: z.array(BattleAction),
  battle_state_opponent_characters: z.array(OutputOpponent),
  player_characters: z.array(OutputCharacter),
  battle_state_next_phase: z.union([BattlePhase, z.literal('')]),
  /** Addition: in player_defense_input, the opponent about to strike and the character it targets. */
  battle_pending_strike: z.object({ opponent_id: z.string(), target_id: z.string() }).nullable(),
  is_awarded: z.boolean(),
  award_type: z.union([AwardSource, z.literal('')]),
  award_id: z.string(),
  score: z.number().int().min(0).max(100),
  equipped_character_id: z.string(),
  equipped_item_id: z.string(),
  awarded_property: z.string(),
  equipment_image_url: z.string(),
  upgraded_character_id: z.string(),
  awarded_rarity: z.string(),
  interaction_bet_size: z.number().int().min(0),
  chosen_difficulty_level: z.string(),
  sacrificed_properties: z.array(z.string()),
  selected_player_characters: z.array(z.string()),
  loop_rank: z.number().int().min(1).max(7).nullable(),
  // Additions: the run after this turn, so a client shows the truth without a second read.
  loop_status: LoopStatus,
  loop_current_number_of_interactions: z.number().int().min(0),
  loop_max_number_of_interactions: z.number().int().min(1),
  interaction_counted: z.boolean(),
  golden_ticket_awarded: z.boolean(),
  skipped_moments: z.array(z.object({ blueprint_moment_id: z.string(), reason: z.string() })),
  notifications: z.array(Notification),
  /** Addition: present only when the game did not catch the player (see NotCaught). */
  not_caught: NotCaught.optional(),
});
export type GameOutput = z.infer<typeof GameOutput>;

export const EquipmentForging = z.object({
  is_awarded: z.boolean(),
  equipped_character_id: z.string(),
  equipped_item_id: z.string(),
  awarded_property: z.string(),
  equipment_image_url: z.string(),
  blueprint_story_id: z.string(),
  player_story_id: z.string(),
});
export type EquipmentForging = z.infer<typeof EquipmentForging>;
