// Effects are data: what the host (server, CLI, simulator) must do after a step. The engine never performs them.
import type { PlayLanguage } from '../schema/enums.js';
import type { CardModifierNotification } from '../schema/notification.js';
import type { EquipmentForging } from '../schema/game-output.js';
import type { Voice } from '../story/format.js';
import type { GameState } from './state.js';

/** Store tables and the GameState collection that holds their rows. */
export const TABLES = {
  player_stories: 'run',
  player_moments: 'moments',
  player_characters: 'characters',
  player_items: 'items',
  player_character_items: 'character_items',
  player_opponents: 'opponents',
  player_character_medias: 'character_media',
  player_item_medias: 'item_media',
  player_permanent_character_tickets: 'tickets',
  player_permanent_characters: 'permanent_characters',
  player_permanent_character_items: 'permanent_items',
  player_permanent_character_medias: 'permanent_media',
} as const satisfies Record<string, keyof GameState>;
export type TableName = keyof typeof TABLES;

export type Effect =
  /** Insert or update this row (by id). */
  | { type: 'persist'; table: TableName; row: { id: string } & Record<string, unknown> }
  /** Reset progress of earlier runs: clear completed_at of this user's player moments in this story. */
  | { type: 'reset_progress'; user_id: string; blueprint_story_id: string }
  | { type: 'send_equipment_forging'; payload: EquipmentForging }
  | { type: 'send_card_modifiers'; payload: CardModifierNotification }
  /** Speak a line (text-to-speech) as this character, in its story voice and the run's language. */
  | {
      type: 'speak';
      text: string;
      language: PlayLanguage;
      blueprint_character_id: string | null;
      /** The character's voice in the story, when it has one (else the synthesizer picks one from the id). */
      voice?: Voice;
      emotion: string;
      intensity: number;
      player_moment_id: string;
      is_starting_dialogue: boolean;
      input_id: string;
    };
