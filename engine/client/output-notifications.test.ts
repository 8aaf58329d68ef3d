import { describe, expect, it } from 'vitest';
import { GameOutput } from '../schema/game-output.js';
import { cardModifierNotification, deriveNotifications, notificationsFor } from './output-notifications.js';

const output = (over: Partial<GameOutput> = {}): GameOutput => GameOutput.parse({
  input_id: 'in-1', player_story_id: 'ps', player_moment_id: 'pm', blueprint_moment_id: 'bm', is_starting_dialogue: false,
  dialogue: 'Hello.', transcribed_player_answer: 'hi', complete_the_moment: false, end_of_game: false, next_moment_id: '',
  player_facts: [], was_perfect_answer: false, was_cache_hit: false, character_emotion_key: 'normal', character_emotion_strength: 1,
  battle_state_action_history: [], battle_state_opponent_characters: [],
  player_characters: [{
    character_id: 'c-ada', blueprint_character_id: null, character_name: 'Ada', character_properties: [],
    character_current_attack: 3, character_base_attack: 3, character_current_health: 5, character_base_health: 5,
    character_card_type: 'Normal', is_selected_in_assemble: true, is_burned_out: false, equipped_items: [],
  }],
  battle_state_next_phase: '', battle_pending_strike: null, is_awarded: false, award_type: '', award_id: '', score: 0, equipped_character_id: '',
  equipped_item_id: '', awarded_property: '', equipment_image_url: '', upgraded_character_id: '', awarded_rarity: '',
  interaction_bet_size: 0, chosen_difficulty_level: '', sacrificed_properties: [], selected_player_characters: [],
  loop_rank: null, loop_status: 'loopStatusOnGoing', loop_current_number_of_interactions: 1,
  loop_max_number_of_interactions: 30, interaction_counted: true, golden_ticket_awarded: false, skipped_moments: [],
  notifications: [],
  ...over,
});

describe('notifications implied by a GAME_OUTPUT', () => {
  it('uses the server’s own notifications when it sent some', () => {
    const own = [{ kind: 'free' as const, id: 'server-1', message: 'Free!' }];
    expect(notificationsFor(output({ was_perfect_answer: true, notifications: own }))).toEqual(own);
  });

  it('implies none for a plain turn', () => {
    expect(notificationsFor(output())).toEqual([]);
  });

  it("implies 'perfect' and 'Free!' for a perfect answer and a cache hit", () => {
    expect(deriveNotifications(output({ was_perfect_answer: true, was_cache_hit: true }))).toEqual([
      { kind: 'perfect', id: 'in-1:perfect', message: 'Perfect answer!' },
      { kind: 'free', id: 'in-1:free', message: 'Free!' },
    ]);
  });

  it('implies sacrificed properties', () => {
    expect(deriveNotifications(output({ sacrificed_properties: ['brave', 'quick'] }))).toEqual([
      { kind: 'sacrificed_properties', id: 'in-1:sacrificed_properties', message: 'Sacrificed: brave, quick', properties: ['brave', 'quick'] },
    ]);
  });

  it("implies upgrade progress, complete ('Here is your riddle') once character, bet and difficulty are known", () => {
    const partial = deriveNotifications(output({ upgraded_character_id: 'c-ada', interaction_bet_size: 2 }));
    expect(partial).toEqual([{
      kind: 'upgrade_progress', id: 'in-1:upgrade_progress', message: 'Character: Ada • Bet: 2 • Difficulty: ?',
      upgradeData: { character: 'Ada', bet: 2, difficulty: '', isComplete: false },
    }]);
    const done = deriveNotifications(output({ upgraded_character_id: 'c-ada', interaction_bet_size: 2, chosen_difficulty_level: 'hard' }));
    expect(done[0]).toMatchObject({ message: 'Here is your riddle', upgradeData: { isComplete: true } });
  });

  it("implies 'RANK X ACHIEVED!' for a won run, 'FIRST TIME!' only when the previous best is known to be worse", () => {
    const won = output({ loop_status: 'loopStatusWon', loop_rank: 3 });
    expect(deriveNotifications(won, { previousBestRank: 4 })).toEqual([
      { kind: 'rank_achieved', id: 'in-1:rank_achieved', message: 'RANK B ACHIEVED!', rankData: { rank: 'B', isFirstTimeAchieved: true } },
    ]);
    expect(deriveNotifications(won, { previousBestRank: null })[0]).toMatchObject({ rankData: { isFirstTimeAchieved: true } });
    expect(deriveNotifications(won, { previousBestRank: 3 })[0]).toMatchObject({ rankData: { isFirstTimeAchieved: false } });
    expect(deriveNotifications(won)[0]).toMatchObject({ rankData: { isFirstTimeAchieved: false } });
  });

  it('implies no rank notification when a first Rank A earned the golden ticket (its overlay shows), nor for a lost run', () => {
    expect(deriveNotifications(output({ loop_status: 'loopStatusWon', loop_rank: 2, golden_ticket_awarded: true }))).toEqual([]);
    expect(deriveNotifications(output({ loop_status: 'loopStatusWon', loop_rank: 2 }))[0]).toMatchObject({ message: 'RANK A ACHIEVED!' });
    expect(deriveNotifications(output({ loop_status: 'loopStatusLost', loop_rank: 5 }))).toEqual([]);
  });

  it('shows no rank notification beside the golden ticket, whatever the rank (a first Rank S earns the ticket too)', () => {
    expect(deriveNotifications(output({ loop_status: 'loopStatusWon', loop_rank: 1, golden_ticket_awarded: true }), { previousBestRank: null })).toEqual([]);
  });

  it("drops the server's rank notification for a lost run and beside the golden ticket: a loss is not celebrated", () => {
    const rank = (letter: string, first: boolean) => ({
      kind: 'rank_achieved' as const, id: 'srv-rank', message: `RANK ${letter} ACHIEVED!${first ? ' FIRST TIME!' : ''}`, duration: 5000,
      rankData: { rank: letter, isFirstTimeAchieved: first },
    });
    const free = { kind: 'free' as const, id: 'srv-free', message: 'Free!' };
    expect(notificationsFor(output({ loop_status: 'loopStatusLost', loop_rank: 7, end_of_game: true, notifications: [rank('F', true), free] }))).toEqual([free]);
    expect(notificationsFor(output({ loop_status: 'loopStatusWon', loop_rank: 1, golden_ticket_awarded: true, notifications: [rank('S', true)] }))).toEqual([]);
    expect(notificationsFor(output({ loop_status: 'loopStatusWon', loop_rank: 3, notifications: [rank('B', false)] }))).toEqual([rank('B', false)]);
  });

  it('turns CARD_MODIFIER_NOTIFICATION into a card_modifier notification', () => {
    const n = cardModifierNotification({
      player_moment_id: 'pm',
      applied_modifiers: [
        { character_name: 'Ada', card_type: 'Golden', description: '+2 attack' },
        { character_name: 'Ada', card_type: 'Golden', description: '+1 health' },
      ],
    }, 'cm-1');
    expect(n).toMatchObject({ kind: 'card_modifier', id: 'cm-1', message: 'Card modifiers: Ada', player_moment_id: 'pm' });
  });
});
