// fast-check arbitraries for every realtime payload and frame, for codec properties and for any test that needs
// valid protocol traffic (simulation bots, server tests). Test-only: nothing at runtime imports this file.
import fc from 'fast-check';
import {
  AWARD_SOURCES, BATTLE_PHASES, CARD_RARITIES, EMOTIONS, LOOP_STATUS,
} from '../schema/enums.js';
import { type EquipmentForging, type EquippedItem, type GameOutput, type OutputCharacter, type OutputOpponent } from '../schema/game-output.js';
import { type CardModifier, type CardModifierNotification, type Notification } from '../schema/notification.js';
import { type BattleAction } from '../schema/player.js';
import { type AccessTokenFrame, type AudioAnswerFrame, type AudioAnswerHeader, type ClientFrame, type Frame, type ServerFrame, type UserInputFrame } from './frames.js';
import {
  AUDIO_FORMATS, MAX_SAMPLE_RATE, MAX_SELECTED_CHARACTERS, MAX_TRANSCRIPTION_CHARS, MIN_SAMPLE_RATE, type UserInput,
} from './user-input.js';

const SMALL = { maxLength: 3 } as const;

/** A version-4 UUID, sometimes upper-case (the schema accepts both; the codec must keep the case). */
export const uuidV4Arb = fc
  .tuple(fc.uuid({ version: 4 }), fc.boolean())
  .map(([u, upper]) => (upper ? u.toUpperCase() : u));

/** The text without U+0000, which the codec refuses in JSON text. */
function withoutNul(s: string): string {
  return s.replaceAll('\0', '');
}

/**
 * Any text a JSON payload may carry, from plain ASCII to astral code points and other control characters:
 * JSON.stringify escapes the awkward ones. Not U+0000 or a lone surrogate: valid JSON escapes, but no text store can
 * hold them, so the codec refuses them (protocol/invalid_text; codec.test.ts).
 */
export const jsonTextArb = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
).map(withoutNul);

/** Well-formed Unicode text (no lone surrogates), which is what survives a raw UTF-8 payload such as ERROR_MESSAGE. */
export const wellFormedTextArb = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme-composite' }));

const str = jsonTextArb;
const strings = fc.array(str, SMALL);
const int = fc.integer();
const nonNegInt = fc.nat();

/** Audio bytes as a frame carries them: never empty. */
export const audioBytesArb = fc.uint8Array({ minLength: 1, maxLength: 4096 });

export const userInputArb: fc.Arbitrary<UserInput> = fc.record(
  {
    input_id: uuidV4Arb,
    player_story_id: uuidV4Arb,
    is_starting_dialogue: fc.boolean(),
    // A cut surrogate pair is fine: it is still at most MAX_TRANSCRIPTION_CHARS UTF-16 units.
    transcription: fc.string({ unit: 'binary', maxLength: MAX_TRANSCRIPTION_CHARS }).map((s) => withoutNul(s).slice(0, MAX_TRANSCRIPTION_CHARS)),
    audio_format: fc.constantFrom(...AUDIO_FORMATS),
    sample_rate: fc.integer({ min: MIN_SAMPLE_RATE, max: MAX_SAMPLE_RATE }),
    channels: fc.constantFrom(1 as const, 2 as const),
    bits_per_sample: fc.constant(16 as const),
    language: fc.constantFrom('english' as const, 'french' as const),
    selected_character_ids: fc.array(uuidV4Arb, { maxLength: MAX_SELECTED_CHARACTERS }),
  },
  { requiredKeys: ['input_id', 'player_story_id', 'is_starting_dialogue'] },
);

export const audioAnswerHeaderArb: fc.Arbitrary<AudioAnswerHeader> = fc.record({
  player_moment_id: uuidV4Arb,
  is_starting_dialogue: fc.boolean(),
  input_id: uuidV4Arb,
});

export const battleActionArb: fc.Arbitrary<BattleAction> = fc.record({
  turn_number: fc.integer({ min: 1, max: 1000 }),
  actor_id: str,
  actor_name: str,
  target_id: str,
  target_name: str,
  action: str,
  was_thematic: fc.boolean(),
  damage: nonNegInt,
  recoil_damage: nonNegInt,
});

export const outputOpponentArb: fc.Arbitrary<OutputOpponent> = fc.record({
  opponent_id: str,
  opponent_name: str,
  current_health: int,
  base_health: int,
  current_attack: int,
  base_attack: int,
  properties: strings,
});

export const equippedItemArb: fc.Arbitrary<EquippedItem> = fc.record({
  id: str,
  blueprint_item_id: fc.option(str, { nil: null }),
  name: str,
  description: str,
  attack_bonus: int,
  defense_bonus: int,
  properties: strings,
  rarity: str,
});

export const outputCharacterArb: fc.Arbitrary<OutputCharacter> = fc.record({
  character_id: str,
  blueprint_character_id: fc.option(str, { nil: null }),
  character_name: str,
  character_properties: strings,
  character_current_attack: int,
  character_base_attack: int,
  character_current_health: int,
  character_base_health: int,
  character_card_type: fc.constantFrom(...CARD_RARITIES, 'permanent' as const),
  is_selected_in_assemble: fc.boolean(),
  is_burned_out: fc.boolean(),
  equipped_items: fc.array(equippedItemArb, { maxLength: 2 }),
});

export const cardModifierArb: fc.Arbitrary<CardModifier> = fc.record({ character_name: str, card_type: str, description: str });

const notificationBase = { id: str, message: str, duration: nonNegInt };
const baseKeys = ['kind', 'id', 'message'] as const;

export const notificationArb: fc.Arbitrary<Notification> = fc.oneof(
  fc.record({ kind: fc.constant('perfect' as const), ...notificationBase }, { requiredKeys: [...baseKeys] }),
  fc.record({ kind: fc.constant('free' as const), ...notificationBase }, { requiredKeys: [...baseKeys] }),
  fc.record(
    { kind: fc.constant('sacrificed_properties' as const), ...notificationBase, properties: strings },
    { requiredKeys: [...baseKeys, 'properties'] },
  ),
  fc.record(
    {
      kind: fc.constant('upgrade_progress' as const), ...notificationBase,
      upgradeData: fc.record({ character: str, bet: int, difficulty: str, isComplete: fc.boolean() }),
    },
    { requiredKeys: [...baseKeys, 'upgradeData'] },
  ),
  fc.record(
    {
      kind: fc.constant('rank_achieved' as const), ...notificationBase,
      rankData: fc.record({ rank: str, isFirstTimeAchieved: fc.boolean() }),
    },
    { requiredKeys: [...baseKeys, 'rankData'] },
  ),
  fc.record(
    {
      kind: fc.constant('card_modifier' as const), ...notificationBase,
      player_moment_id: str, applied_modifiers: fc.array(cardModifierArb, SMALL),
    },
    { requiredKeys: [...baseKeys, 'player_moment_id', 'applied_modifiers'] },
  ),
);

export const gameOutputArb: fc.Arbitrary<GameOutput> = fc.record({
  input_id: str,
  player_story_id: str,
  player_moment_id: str,
  blueprint_moment_id: str,
  is_starting_dialogue: fc.boolean(),
  dialogue: str,
  transcribed_player_answer: str,
  complete_the_moment: fc.boolean(),
  end_of_game: fc.boolean(),
  next_moment_id: fc.oneof(fc.constant(''), uuidV4Arb, str),
  player_facts: strings,
  was_perfect_answer: fc.boolean(),
  was_cache_hit: fc.boolean(),
  character_emotion_key: fc.constantFrom(...EMOTIONS),
  character_emotion_strength: fc.constantFrom(1 as const, 2 as const, 3 as const, 4 as const, 5 as const),
  battle_state_action_history: fc.array(battleActionArb, SMALL),
  battle_state_opponent_characters: fc.array(outputOpponentArb, SMALL),
  player_characters: fc.array(outputCharacterArb, SMALL),
  battle_state_next_phase: fc.constantFrom(...BATTLE_PHASES, '' as const),
  battle_pending_strike: fc.option(fc.record({ opponent_id: fc.uuid(), target_id: fc.uuid() }), { nil: null }),
  is_awarded: fc.boolean(),
  award_type: fc.constantFrom(...AWARD_SOURCES, '' as const),
  award_id: str,
  score: fc.integer({ min: 0, max: 100 }),
  equipped_character_id: str,
  equipped_item_id: str,
  awarded_property: str,
  equipment_image_url: str,
  upgraded_character_id: str,
  awarded_rarity: str,
  interaction_bet_size: nonNegInt,
  chosen_difficulty_level: str,
  sacrificed_properties: strings,
  selected_player_characters: strings,
  loop_rank: fc.option(fc.integer({ min: 1, max: 7 }), { nil: null }),
  loop_status: fc.constantFrom(LOOP_STATUS.ongoing, LOOP_STATUS.won, LOOP_STATUS.lost),
  loop_current_number_of_interactions: nonNegInt,
  loop_max_number_of_interactions: fc.integer({ min: 1, max: 1000 }),
  interaction_counted: fc.boolean(),
  golden_ticket_awarded: fc.boolean(),
  skipped_moments: fc.array(fc.record({ blueprint_moment_id: str, reason: str }), SMALL),
  notifications: fc.array(notificationArb, SMALL),
});

export const equipmentForgingArb: fc.Arbitrary<EquipmentForging> = fc.record({
  is_awarded: fc.boolean(),
  equipped_character_id: str,
  equipped_item_id: str,
  awarded_property: str,
  equipment_image_url: str,
  blueprint_story_id: str,
  player_story_id: str,
});

export const cardModifierNotificationArb: fc.Arbitrary<CardModifierNotification> = fc.record({
  player_moment_id: str,
  applied_modifiers: fc.array(cardModifierArb, SMALL),
});

// ---------------------------------------------------------------------------------------------------------------
// Frames

export const userInputFrameArb: fc.Arbitrary<UserInputFrame> = fc.record(
  { type: fc.constant('USER_INPUT' as const), input: userInputArb, audio: audioBytesArb },
  { requiredKeys: ['type', 'input'] },
);

export const audioAnswerFrameArb: fc.Arbitrary<AudioAnswerFrame> = fc.record({
  type: fc.constant('AUDIO_ANSWER' as const),
  header: audioAnswerHeaderArb,
  audio: audioBytesArb,
});

export const accessTokenFrameArb: fc.Arbitrary<AccessTokenFrame> = fc.record({
  type: fc.constant('ACCESS_TOKEN' as const),
  accessToken: fc.string({ minLength: 1, maxLength: 300 }).filter((t) => !t.includes('\0')),
});

export const clientFrameArb: fc.Arbitrary<ClientFrame> = fc.oneof({ arbitrary: userInputFrameArb, weight: 4 }, { arbitrary: accessTokenFrameArb, weight: 1 });

export const serverFrameArb: fc.Arbitrary<ServerFrame> = fc.oneof(
  audioAnswerFrameArb,
  fc.record({ type: fc.constant('GAME_OUTPUT' as const), output: gameOutputArb }),
  fc.record({ type: fc.constant('EQUIPMENT_FORGING' as const), payload: equipmentForgingArb }),
  fc.record({ type: fc.constant('CARD_MODIFIER_NOTIFICATION' as const), payload: cardModifierNotificationArb }),
  fc.record({ type: fc.constant('ERROR_MESSAGE' as const), message: wellFormedTextArb }),
);

export const frameArb: fc.Arbitrary<Frame> = fc.oneof(clientFrameArb, serverFrameArb);
