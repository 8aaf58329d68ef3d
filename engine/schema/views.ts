// Read models: the catalogue view, the game engine view and the moment view (field names of both specs).
import { z } from 'zod';
import { CardType, Emotion, Intensity, Language, Level, MomentType } from './enums.js';
import { EquippedItem } from './game-output.js';

const Tag = z.object({ value: z.string() });

/** A row of blueprint_stories_with_ratings_view, also an entry of /data/catalogue.json. */
export const CatalogueStory = z.object({
  id: z.string(),
  name: z.string(),
  background_image: z.string(),
  story_logo_image: z.string(),
  sampleImages: z.array(z.string()),
  text_rgba_color: z.string(),
  catalogue_description: z.string(),
  created_at: z.string(),
  is_coming_soon: z.boolean(),
  user_started: z.boolean(),
  esbr_rating: z.string(),
  esbr_tags: z.array(Tag),
  genre_tags: z.array(Tag),
  interactivity_level: Level,
  branching_level: Level,
  estimated_minute_duration: z.number().int(),
  positive_count: z.number().int().nullable(),
  negative_count: z.number().int().nullable(),
});
export type CatalogueStory = z.infer<typeof CatalogueStory>;

export const StaticCatalogue = z.object({ stories: z.array(CatalogueStory), lastUpdated: z.string() });
export type StaticCatalogue = z.infer<typeof StaticCatalogue>;

export const ImageDetails = z.object({ media_url: z.string(), media_kind: z.enum(['image', 'video']) });
export type ImageDetails = z.infer<typeof ImageDetails>;

export const EnrolledCharacter = z.object({
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
  equipped_items: z.array(EquippedItem),
});
export type EnrolledCharacter = z.infer<typeof EnrolledCharacter>;

export const AvailableItem = z.object({
  available_item_id: z.string(),
  available_item_name: z.string(),
  available_item_properties: z.array(z.string()),
  available_item_attack_bonus: z.number().int(),
  available_item_defense_bonus: z.number().int(),
});
export type AvailableItem = z.infer<typeof AvailableItem>;

export const ViewOpponent = z.object({ opponent_id: z.string(), opponent_name: z.string(), opponent_current_health: z.number().int(), opponent_base_health: z.number().int() });
export type ViewOpponent = z.infer<typeof ViewOpponent>;

/** game_engine_view, read by player_story_id. */
export const GameView = z.object({
  player_story_id: z.string(),
  blueprint_story_id: z.string(),
  blueprint_moment_id: z.string(),
  blueprint_place_id: z.string().nullable(),
  moment_type: MomentType,
  moment_name: z.string(),
  moment_date: z.string(),
  language: Language,
  loop_rank: z.number().int().nullable(),
  loop_number: z.number().int(),
  loop_current_number_of_interactions: z.number().int(),
  loop_max_number_of_interactions: z.number().int(),
  loop_status: z.string(),
  best_rank: z.number().int().nullable(),
  background_rgba_color: z.string(),
  text_rgba_color: z.string(),
  control_rgba_color: z.string(),
  place_image_details: z.array(ImageDetails),
  moment_image_details: z.array(ImageDetails),
  character_image_details: z.array(ImageDetails),
  do_not_display_character: z.boolean(),
  battle_opponent_characters: z.array(ViewOpponent),
  enrolled_characters: z.array(EnrolledCharacter),
  player_items: z.array(AvailableItem),
  is_moment_complete: z.boolean(),
  battle_phase: z.string(),
  /** Assemble moments: how many characters the team takes (the banner 'selected / maxRequired'); null elsewhere. */
  max_number_of_characters: z.number().int().nullable(),
  /** The picture of each card (enrolled character, item, opponent) by its id; URLs resolved by the server. */
  card_images: z.record(z.string(), z.string()),
});
export type GameView = z.infer<typeof GameView>;

/** One moment of the run so far (the game screen's story graph, game spec §2): its type, name and cards. */
export const StoryGraphNode = z.object({
  player_moment_id: z.string(),
  blueprint_moment_id: z.string(),
  moment_type: MomentType,
  moment_name: z.string(),
  status: z.enum(['complete', 'skipped', 'current']),
  /** Battle: the opponents; Reward/Equip/Upgrade...: the characters and items gained there. A node shows the first. */
  cards: z.array(z.object({ id: z.string(), name: z.string(), kind: z.enum(['opponent', 'character', 'item']) })),
});
export type StoryGraphNode = z.infer<typeof StoryGraphNode>;

/** GET /api/player-stories/:id/story-graph: the moments of the run in the order played, the current one last. */
export const StoryGraph = z.object({ player_story_id: z.string(), nodes: z.array(StoryGraphNode) });
export type StoryGraph = z.infer<typeof StoryGraph>;

/** The moment view for the current player (game spec §3). */
export const MomentView = z.object({
  player_moment_id: z.string(),
  player_story_id: z.string(),
  user_id: z.string(),
  blueprint_moment_id: z.string(),
  blueprint_story_id: z.string(),
  moment_type: MomentType,
  moment_name: z.string(),
  sound: z.string().nullable(),
  sound_volume: z.number().nullable(),
  transitions: z.array(z.object({ next_moment_id: z.string(), label: z.string().nullable() })),
  skip_to_moment_id: z.string().nullable(),
  skip_after_run_number: z.number().int().nullable(),
  show_after_run_number: z.number().int().nullable(),
  skip_after_completion_count: z.number().int().nullable(),
  user_moment_completion_count: z.number().int(),
  display_randomly_probability: z.number().nullable(),
  max_number_of_characters: z.number().int().nullable(),
  enrolled_characters: z.array(EnrolledCharacter),
  player_items: z.array(AvailableItem),
  battle_opponent_characters: z.array(ViewOpponent),
  score_threshold_for_award: z.number().int().nullable(),
  speech_patterns: z.array(z.string()),
  default_emotion: Emotion,
  default_emotion_intensity: Intensity,
  hint_translation: z.string().nullable(),
  hint_tts: z.string().nullable(),
  do_not_display_character: z.boolean(),
});
export type MomentView = z.infer<typeof MomentView>;

/** GET /api/tickets/:id/cards: what the redeem card picker offers (the latest run of the ticket's story). */
export const TicketCards = z.object({
  player_story_id: z.string().nullable(),
  characters: z.array(EnrolledCharacter),
  items: z.array(AvailableItem),
});
export type TicketCards = z.infer<typeof TicketCards>;
