// Building the GAME_OUTPUT of a turn from the state after it.
import type { GameOutput, OutputCharacter } from '../schema/game-output.js';
import type { PlayerItem, PlayerMoment } from '../schema/player.js';
import type { GameState } from './state.js';
import type { TurnInfo } from './turn-info.js';

export function outputCharacters(s: GameState): OutputCharacter[] {
  const itemsById = new Map(s.items.map((i) => [i.id, i]));
  const equipped = new Map<string, PlayerItem[]>();
  for (const l of s.character_items) {
    const it = l.is_equipped ? itemsById.get(l.player_item_id) : undefined;
    if (it) equipped.set(l.player_character_id, [...(equipped.get(l.player_character_id) ?? []), it]);
  }
  return s.characters.map((c) => ({
    character_id: c.id,
    blueprint_character_id: c.blueprint_character_id,
    character_name: c.name,
    character_properties: c.properties,
    character_current_attack: c.current_attack,
    character_base_attack: c.current_attack,
    character_current_health: c.current_health,
    character_base_health: c.max_health,
    character_card_type: c.card_type,
    is_selected_in_assemble: c.is_selected_in_assemble,
    is_burned_out: c.current_health === 0,
    equipped_items: (equipped.get(c.id) ?? []).map((i) => ({
      id: i.id, blueprint_item_id: i.blueprint_item_id, name: i.name, description: i.description,
      attack_bonus: i.attack_bonus, defense_bonus: i.defense_bonus, properties: i.properties, rarity: i.rarity,
    })),
  }));
}

export function buildOutput(s: GameState, info: TurnInfo, dialogue: string): GameOutput {
  const run = s.run;
  if (!run) throw new Error('buildOutput: no run');
  const pm: PlayerMoment | undefined = s.moments.find((m) => m.id === info.player_moment_id);
  const d = info.decision;
  return {
    input_id: info.input_id,
    player_story_id: run.id,
    player_moment_id: info.player_moment_id,
    blueprint_moment_id: info.blueprint_moment_id,
    is_starting_dialogue: info.is_starting_dialogue,
    dialogue,
    transcribed_player_answer: info.transcription,
    complete_the_moment: info.complete,
    end_of_game: info.end_of_game,
    next_moment_id: info.next_moment_id,
    player_facts: pm?.player_facts ?? [],
    was_perfect_answer: d.perfect,
    was_cache_hit: d.cache_hit,
    character_emotion_key: d.emotion,
    character_emotion_strength: d.intensity,
    battle_state_action_history: pm?.battle_action_history ?? [],
    battle_state_opponent_characters: s.opponents.filter((o) => o.player_moment_id === info.player_moment_id).map((o) => ({
      opponent_id: o.id, opponent_name: o.name, current_health: o.current_health, base_health: o.base_health,
      current_attack: o.current_attack, base_attack: o.base_attack, properties: o.properties,
    })),
    player_characters: outputCharacters(s),
    battle_state_next_phase: info.phase_override ?? (pm && s.opponents.some((o) => o.player_moment_id === pm.id) ? pm.battle_phase : ''),
    battle_pending_strike: info.phase_override ? null : pm?.pending_strike ?? null,
    is_awarded: info.award !== null || info.equip !== null,
    award_type: info.award?.type ?? '',
    award_id: info.award?.id ?? '',
    score: d.score,
    equipped_character_id: info.equip?.character_id ?? '',
    equipped_item_id: info.equip?.item_id ?? '',
    awarded_property: info.equip?.property ?? '',
    equipment_image_url: info.equip?.image ?? '',
    upgraded_character_id: info.upgrade?.character_id ?? '',
    awarded_rarity: info.upgrade?.rarity ?? '',
    interaction_bet_size: info.bet?.size ?? 0,
    chosen_difficulty_level: info.bet?.level ?? '',
    sacrificed_properties: info.upgrade?.sacrificed ?? [],
    selected_player_characters: s.characters.filter((c) => c.is_selected_in_assemble).map((c) => c.id),
    loop_rank: run.loop_rank,
    loop_status: run.loop_status,
    loop_current_number_of_interactions: run.loop_current_number_of_interactions,
    loop_max_number_of_interactions: run.loop_max_number_of_interactions,
    interaction_counted: info.counted,
    golden_ticket_awarded: info.golden,
    skipped_moments: info.skipped,
    notifications: info.notifications,
  };
}
