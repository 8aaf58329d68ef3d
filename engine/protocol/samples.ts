// Realistic, deterministic frames: a battle turn's GAME_OUTPUT (about 2 KB of JSON) and a spoken USER_INPUT.
// Used by the codec tests and by scripts/bench/protocol.ts; fine as examples in docs and other tests.
import { type EquipmentForging, type GameOutput } from '../schema/game-output.js';
import { type CardModifierNotification } from '../schema/notification.js';
import { type AudioAnswerHeader } from './frames.js';
import { type UserInput } from './user-input.js';

export const SAMPLE_IDS = {
  input: '3f2c9a4e-7b1d-4c8e-9a2f-1d3e5b7c9f01',
  playerStory: '8d1e4f2a-5c6b-4a7d-8e9f-0a1b2c3d4e5f',
  playerMoment: 'c4b3a291-8f7e-4d6c-b5a4-938271605f4e',
  blueprintMoment: '1a2b3c4d-5e6f-4789-8abc-def012345678',
  nextMoment: '9e8d7c6b-5a49-4382-a716-0f1e2d3c4b5a',
  blueprintStory: '2b4d6f8a-1c3e-4a5b-9c7d-e9f1a3b5c7d9',
  hero: '5f6e7d8c-9bab-4cde-8f01-23456789abcd',
  heroBlueprint: '6a7b8c9d-0e1f-4a2b-9c3d-4e5f6a7b8c9d',
  opponent: '7b8c9d0e-1f2a-4b3c-8d4e-5f6a7b8c9d0e',
  sword: '8c9d0e1f-2a3b-4c4d-9e5f-6a7b8c9d0e1f',
} as const;

export function sampleUserInput(): UserInput {
  return {
    input_id: SAMPLE_IDS.input,
    player_story_id: SAMPLE_IDS.playerStory,
    is_starting_dialogue: false,
    audio_format: 'mp3',
    sample_rate: 16000,
    channels: 1,
    bits_per_sample: 16,
    language: 'english',
    selected_character_ids: [SAMPLE_IDS.hero],
  };
}

/** Deterministic pseudo-audio bytes (not a real MP3; the codec never looks inside). */
export function sampleAudio(length: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = 0x9e3779b9;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

export function sampleAudioAnswerHeader(): AudioAnswerHeader {
  return { player_moment_id: SAMPLE_IDS.playerMoment, is_starting_dialogue: false, input_id: SAMPLE_IDS.input };
}

/** A battle turn after the player's attack, one hero against one opponent: about 2.5 KB once stringified, most of it keys and ids. */
export function sampleGameOutput(): GameOutput {
  return {
    input_id: SAMPLE_IDS.input,
    player_story_id: SAMPLE_IDS.playerStory,
    player_moment_id: SAMPLE_IDS.playerMoment,
    blueprint_moment_id: SAMPLE_IDS.blueprintMoment,
    is_starting_dialogue: false,
    dialogue:
      'The keeper staggers back. "You fight like the tide," she growls.',
    transcribed_player_answer: 'I knock her lantern into the sea.',
    complete_the_moment: false,
    end_of_game: false,
    next_moment_id: SAMPLE_IDS.nextMoment,
    player_facts: ['The keeper fears the dark.'],
    was_perfect_answer: false,
    was_cache_hit: false,
    character_emotion_key: 'anger',
    character_emotion_strength: 3,
    battle_state_action_history: [
      {
        turn_number: 1, actor_id: SAMPLE_IDS.hero, actor_name: 'Mara', target_id: SAMPLE_IDS.opponent,
        target_name: 'The Keeper', action: 'knocks the lantern away', was_thematic: true, damage: 6, recoil_damage: 1,
      },
    ],
    battle_state_opponent_characters: [
      {
        opponent_id: SAMPLE_IDS.opponent, opponent_name: 'The Keeper', current_health: 14, base_health: 20,
        current_attack: 4, base_attack: 4, properties: ['Stubborn', 'Fears the dark'],
      },
    ],
    player_characters: [
      {
        character_id: SAMPLE_IDS.hero, blueprint_character_id: SAMPLE_IDS.heroBlueprint, character_name: 'Mara',
        character_properties: ['Brave', 'Sea-born'], character_current_attack: 6, character_base_attack: 5,
        character_current_health: 9, character_base_health: 12, character_card_type: 'Prismatic',
        is_selected_in_assemble: true, is_burned_out: false,
        equipped_items: [
          {
            id: SAMPLE_IDS.sword, blueprint_item_id: null, name: 'Driftwood Sword', description: 'Warped by salt, sharp by will.',
            attack_bonus: 1, defense_bonus: 0, properties: ['Buoyant'], rarity: 'rare',
          },
        ],
      },
    ],
    battle_state_next_phase: 'player_defense_input',
    battle_pending_strike: { opponent_id: SAMPLE_IDS.opponent, target_id: SAMPLE_IDS.hero },
    is_awarded: false,
    award_type: '',
    award_id: '',
    score: 72,
    equipped_character_id: '',
    equipped_item_id: '',
    awarded_property: '',
    equipment_image_url: '',
    upgraded_character_id: '',
    awarded_rarity: '',
    interaction_bet_size: 0,
    chosen_difficulty_level: '',
    sacrificed_properties: [],
    selected_player_characters: [SAMPLE_IDS.hero],
    loop_rank: null,
    loop_status: 'loopStatusOnGoing',
    loop_current_number_of_interactions: 7,
    loop_max_number_of_interactions: 30,
    interaction_counted: true,
    golden_ticket_awarded: false,
    skipped_moments: [],
    notifications: [{ kind: 'free', id: 'n-7', message: 'Free!', duration: 2000 }],
  };
}

export function sampleEquipmentForging(): EquipmentForging {
  return {
    is_awarded: true,
    equipped_character_id: SAMPLE_IDS.hero,
    equipped_item_id: SAMPLE_IDS.sword,
    awarded_property: 'Buoyant',
    equipment_image_url: 'https://cdn.example.test/equipment/sword.jpg',
    blueprint_story_id: SAMPLE_IDS.blueprintStory,
    player_story_id: SAMPLE_IDS.playerStory,
  };
}

export function sampleCardModifierNotification(): CardModifierNotification {
  return {
    player_moment_id: SAMPLE_IDS.playerMoment,
    applied_modifiers: [{ character_name: 'Mara', card_type: 'Prismatic', description: '+1 attack in the rain' }],
  };
}
