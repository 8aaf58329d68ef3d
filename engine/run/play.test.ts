// A whole run through every moment type of the test story, checking each rule on the way.
import { describe, expect, it } from 'vitest';
import { LOOP_STATUS } from '../schema/enums.js';
import { T, testStory } from './test-story.js';
import { Harness } from './test-harness.js';

function toReward(h: Harness): void {
  h.create();
  h.start();
  if (h.moment?.blueprint_moment_id === T.learn) {
    h.start();
    h.say('understood', { outcome: 'complete' });
  }
  h.start();
  h.say('left', { outcome: 'complete', next_moment_id: T.reward });
  h.start();
}

/** Fights the battle with Hero attacking thematically and defending; returns the last step. */
function winBattle(h: Harness) {
  h.start();
  let guard = 0;
  while (h.momentType() === 'Battle' && guard++ < 40) {
    const hero = h.character('Hero');
    const foe = h.state.opponents.find((o) => o.current_health > 0);
    h.say('attack', { battle: { kind: 'attack', actor_id: hero.id, target_id: foe?.id, action: 'charge', thematic: true } });
    if (h.momentType() !== 'Battle') break;
    h.say('block', { battle: { kind: 'defend', action: 'block', thematic: true } });
  }
}

describe('reward (game spec §4)', () => {
  it('creates an item, a character or a dynamic item only when the player lacks it', () => {
    const h = new Harness(testStory);
    toReward(h);
    const r = h.say('the cloak', { award: { reward_type: 'item', id: T.cloak } });
    const out = r.outputs[0];
    expect(out).toMatchObject({ is_awarded: true, award_type: 'item', complete_the_moment: true });
    expect(h.state.items.find((i) => i.id === out?.award_id)).toMatchObject({ name: 'Cloak', source: 'item', acquired_in_blueprint_moment_id: T.reward });

    const h2 = new Harness(testStory);
    toReward(h2);
    h2.say('rook', { award: { reward_type: 'character', id: T.rook } });
    expect(h2.character('Rook')).toMatchObject({ is_selected_in_assemble: true, enrolled_in_blueprint_moment_id: T.reward });

    const h3 = new Harness(testStory);
    toReward(h3);
    h3.say('echo', { award: { reward_type: 'dynamic_item', id: '00000000-0000-4000-8000-000000000300' } });
    expect(h3.state.items.find((i) => i.name === 'Echo')).toMatchObject({ source: 'dynamic_item', blueprint_item_id: null, attack_bonus: 2 });
  });

  it('never gives an owned item twice (next run, same reward)', () => {
    const h = new Harness(testStory);
    toReward(h);
    h.say('the cloak', { award: { reward_type: 'item', id: T.cloak } });
    toReward(h);
    const r = h.say('the cloak', { award: { reward_type: 'item', id: T.cloak } });
    expect(r.outputs[0]?.is_awarded).toBe(false);
    expect(h.state.items.filter((i) => i.name === 'Cloak')).toHaveLength(1);
  });
});

describe('battle (game spec §4)', () => {
  it('an attack gives two outputs: ai_attack_selection, then the strike to defend (DEFEND)', () => {
    const h = new Harness(testStory);
    toReward(h);
    h.say('cloak', { award: { reward_type: 'item', id: T.cloak } });
    const start = h.start();
    expect(start.outputs[0]?.battle_state_next_phase).toBe('initial');
    expect(start.outputs[0]?.battle_state_opponent_characters.map((o) => o.opponent_name)).toEqual(['Gremlin', 'Ogre']);
    const hero = h.character('Hero');
    const gremlin = h.state.opponents.find((o) => o.name === 'Gremlin');
    const r = h.say('hero charges the gremlin', { battle: { kind: 'attack', actor_id: hero.id, target_id: gremlin?.id, action: 'charge', thematic: true } });
    expect(r.outputs.map((o) => o.battle_state_next_phase)).toEqual(['ai_attack_selection', 'player_defense_input']);
    const [first] = r.outputs;
    // (6 attack + 0 bonus) x 1.5 = 9 damage; recoil floor(4/4) - 0 defence = 1.
    expect(first?.battle_state_action_history[0]).toMatchObject({ actor_name: 'Hero', target_name: 'Gremlin', damage: 9, recoil_damage: 1, was_thematic: true });
    expect(first?.battle_state_opponent_characters.find((o) => o.opponent_name === 'Gremlin')?.current_health).toBe(1);
    expect(h.character('Hero').current_health).toBe(19);
    expect(r.outputs[1]?.dialogue).toMatch(/prepares to strike/);
    expect(r.outputs[0]?.interaction_counted).toBe(true);
    // learn + crossroad + reward + this attack: one interaction each, the AI's choice costs nothing.
    expect(h.run.loop_current_number_of_interactions).toBe(4);
  });

  it('defending halves a strike when thematic; winning completes the moment cleanly', () => {
    const h = new Harness(testStory);
    toReward(h);
    h.say('cloak', { award: { reward_type: 'item', id: T.cloak } });
    winBattle(h);
    expect(h.momentType()).toBe('Assemble');
    expect(h.run).toMatchObject({ battles_won: 1 });
    const battle = h.state.moments.find((m) => m.blueprint_moment_id === T.battle);
    expect(battle?.completed_at).not.toBeNull();
    const strikes = battle?.battle_action_history.filter((a) => a.actor_name === 'Gremlin' || a.actor_name === 'Ogre') ?? [];
    for (const s of strikes) expect(s.damage).toBeLessThanOrEqual(4);
  });

  it('loses the run when every fighter burns out', () => {
    const weak = { ...testStory, characters: testStory.characters.map((c) => (c.name === 'Ogre' ? { ...c, base_attack: 50, base_health: 500 } : c)) };
    const h = new Harness(weak);
    toReward(h);
    h.say('cloak', { award: { reward_type: 'item', id: T.cloak } });
    h.start();
    let last;
    for (let i = 0; i < 10 && h.run.loop_status === LOOP_STATUS.ongoing; i++) {
      const ogre = h.state.opponents.find((o) => o.name === 'Ogre');
      last = h.say('attack', { battle: { kind: 'attack', target_id: ogre?.id, action: 'hit', thematic: false } });
      if (h.run.loop_status !== LOOP_STATUS.ongoing) break;
      last = h.say('nothing');
    }
    expect(h.run.loop_status).toBe(LOOP_STATUS.lost);
    expect(last?.outputs.at(-1)?.end_of_game).toBe(true);
    expect(h.run.burn_outs).toBeGreaterThanOrEqual(2);
  });
});

describe('assemble, equip, upgrade, test, epilogue', () => {
  function toAssemble(h: Harness): void {
    toReward(h);
    h.say('rook', { award: { reward_type: 'character', id: T.rook } });
    winBattle(h);
  }

  it('assemble resets the selection, saves it live and completes at the required count', () => {
    const h = new Harness(testStory);
    toAssemble(h);
    expect(h.momentType()).toBe('Assemble');
    expect(h.state.characters.some((c) => c.is_selected_in_assemble)).toBe(false);
    h.start();
    const r1 = h.say('hero', { selection: [h.character('Hero').id] });
    expect(r1.outputs[0]).toMatchObject({ complete_the_moment: false, selected_player_characters: [h.character('Hero').id] });
    h.ok({ type: 'assemble.select', character_ids: [h.character('Rook').id] });
    expect(h.state.characters.filter((c) => c.is_selected_in_assemble).map((c) => c.name)).toEqual(['Rook']);
    const r2 = h.say('hero and sage', { selection: [h.character('Hero').id, h.character('Sage').id] });
    expect(r2.outputs[0]?.complete_the_moment).toBe(true);
    expect(h.state.characters.filter((c) => c.is_selected_in_assemble).map((c) => c.name).sort()).toEqual(['Hero', 'Rook']);
  });

  it('equip merges properties and forges; upgrade spends the bet and upgrades the card; a perfect test answer is free and awarded', () => {
    const h = new Harness(testStory);
    toAssemble(h);
    h.start();
    h.say('hero and sage', { selection: [h.character('Hero').id, h.character('Sage').id] });
    // Equip
    h.start();
    const lamp = h.state.items.find((i) => i.name === 'Lamp');
    const eq = h.say('lamp to hero', { equip: { character_id: h.character('Hero').id, item_id: lamp?.id ?? '' } });
    expect(eq.outputs[0]).toMatchObject({ is_awarded: true, equipped_character_id: h.character('Hero').id, awarded_property: 'bright', complete_the_moment: true });
    expect(eq.effects.some((e) => e.type === 'send_equipment_forging')).toBe(true);
    expect(h.character('Hero').properties).toEqual(['brave', 'bright']);
    // Upgrade: partial bet, then the rest, then the riddle.
    h.start();
    const before = h.run.loop_current_number_of_interactions;
    const p1 = h.say('hero', { upgrade: { stage: 'bet', character_id: h.character('Hero').id } });
    expect(p1.outputs[0]?.notifications[0]).toMatchObject({ kind: 'upgrade_progress', upgradeData: { isComplete: false } });
    const p2 = h.say('hard, three', { upgrade: { stage: 'bet', level: 'hard', bet: 3 } });
    expect(p2.outputs[0]).toMatchObject({ interaction_bet_size: 3, chosen_difficulty_level: 'hard' });
    expect(p2.outputs[0]?.notifications[0]).toMatchObject({ message: 'Here is your riddle', duration: 1000, upgradeData: { isComplete: true, bet: 3 } });
    expect(h.run.loop_current_number_of_interactions).toBe(before + 2 + 3);
    const up = h.say('echo', { upgrade: { stage: 'answer', correct: true } });
    expect(up.outputs[0]).toMatchObject({ upgraded_character_id: h.character('Hero').id, awarded_rarity: 'Golden', award_type: 'upgrade', sacrificed_properties: ['brave', 'bright'], complete_the_moment: true });
    expect(h.character('Hero')).toMatchObject({ card_type: 'Golden', properties: [], current_attack: 6 + 12 });
    expect(h.state.items.find((i) => i.source === 'sacrificed_properties')?.properties).toEqual(['brave', 'bright']);
    expect(h.state.items.find((i) => i.source === 'upgrade')?.name).toBe('Medal');
    expect(up.effects.some((e) => e.type === 'send_card_modifiers')).toBe(true);
    // Test: a perfect answer is free and earns the perfect_answer item.
    h.start();
    const n = h.run.loop_current_number_of_interactions;
    const t = h.say('the answer', { outcome: 'complete', perfect: true, score: 100 });
    expect(t.outputs[0]).toMatchObject({ was_perfect_answer: true, interaction_counted: false, award_type: 'perfect_answer' });
    expect(h.run.loop_current_number_of_interactions).toBe(n);
  });
});
