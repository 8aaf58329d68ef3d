import { describe, expect, it } from 'vitest';
import { LOOP_STATUS } from '../schema/enums.js';
import { T, testStory as baseStory } from './test-story.js';

// A generous budget so that the scripted path below ranks A.
const testStory = { ...baseStory, loop_max_number_of_interactions: 100 };
import { Harness } from './test-harness.js';

/** Plays straight to the Epilogue through the skip-free path with few interactions, for a high rank. */
function winRun(h: Harness, extraTurns = 0): void {
  h.create();
  h.start();
  if (h.moment?.blueprint_moment_id === T.learn) {
    h.start();
    h.say('understood', { outcome: 'complete', perfect: true });
  }
  for (let i = 0; i < extraTurns; i++) h.say('hmm');
  h.start();
  h.say('left', { outcome: 'complete', next_moment_id: T.reward, perfect: true });
  h.start();
  h.say('cloak', { award: { reward_type: 'item', id: T.cloak }, perfect: true, outcome: 'complete' });
  h.start();
  while (h.momentType() === 'Battle') {
    const foe = h.state.opponents.find((o) => o.current_health > 0);
    h.say('attack', { battle: { kind: 'attack', actor_id: h.character('Hero').id, target_id: foe?.id, action: 'charge', thematic: true } });
    if (h.momentType() === 'Battle') h.say('block', { battle: { kind: 'defend', action: 'block', thematic: true } });
  }
  h.start();
  h.say('hero and sage', { selection: [h.character('Hero').id, h.character('Sage').id] });
  h.start();
  h.say('lamp', { equip: { character_id: h.character('Hero').id, item_id: h.state.items[0]?.id ?? '' } });
  h.start();
  h.say('hero easy one', { upgrade: { stage: 'bet', character_id: h.character('Hero').id, level: 'easy', bet: 1 } });
  h.say('four', { upgrade: { stage: 'answer', correct: true } });
  h.start();
  h.say('answer', { outcome: 'complete', perfect: true, score: 100 });
  while (h.momentType() === 'Teamwork') {
    h.start();
    h.say('together', { outcome: 'complete' });
  }
  expect(h.momentType()).toBe('Epilogue');
  h.start();
}

describe('end of run, ranks and golden tickets', () => {
  it('an Epilogue completed without end_of_game wins; the first Rank A earns exactly one ticket', () => {
    const h = new Harness(testStory);
    winRun(h);
    expect(h.run).toMatchObject({ loop_status: LOOP_STATUS.won, is_successful_run: true });
    expect(h.run.loop_rank).toBeLessThanOrEqual(2);
    const out = h.last?.ok ? h.last.outputs[0] : undefined;
    expect(out).toMatchObject({ golden_ticket_awarded: true, complete_the_moment: true });
    expect(h.state.tickets).toHaveLength(1);
    expect(h.state.tickets[0]).toMatchObject({ is_redeemed: false, blueprint_story_id: T.story });
    // Rank rewards (rank B or better): the Crown, source rank_achieved.
    expect(h.state.items.find((i) => i.name === 'Crown')?.source).toBe('rank_achieved');

    winRun(h);
    const again = h.last?.ok ? h.last.outputs[0] : undefined;
    expect(again?.golden_ticket_awarded).toBe(false);
    expect(h.state.tickets).toHaveLength(1);
    const n = again?.notifications.find((x) => x.kind === 'rank_achieved');
    expect(n).toMatchObject({ duration: 5000 });
    expect(n?.message).toMatch(/^RANK [SA] ACHIEVED!/);
  });

  it("says 'RANK X ACHIEVED!' with 'FIRST TIME!' for a new best below A", () => {
    const h = new Harness({ ...baseStory, rank_thresholds: { S: 1000, A: 999, B: 0, C: 0, D: 0 } });
    winRun(h);
    const out = h.last?.ok ? h.last.outputs[0] : undefined;
    expect(out?.notifications.find((x) => x.kind === 'rank_achieved')).toMatchObject({
      message: 'RANK B ACHIEVED! FIRST TIME!', rankData: { rank: 'B', isFirstTimeAchieved: true },
    });
    winRun(h);
    const second = h.last?.ok ? h.last.outputs[0] : undefined;
    expect(second?.notifications.find((x) => x.kind === 'rank_achieved')?.message).toBe('RANK B ACHIEVED!');
  });
});

describe('golden ticket redemption (accounts spec §4, §5, §8)', () => {
  it('makes a character permanent with its equipped items and media; the card joins every new run', () => {
    const h = new Harness(testStory);
    winRun(h);
    const ticket = h.state.tickets[0];
    const hero = h.character('Hero');
    const r = h.ok({ type: 'ticket.redeem', ticket_id: ticket?.id ?? '', card: { kind: 'character', id: hero.id } });
    expect(r.redeemed?.permanent_character).toMatchObject({ name: 'Hero', card_type: 'permanent', source_player_character_id: hero.id, redeemed_ticket_id: ticket?.id });
    expect(r.redeemed?.permanent_items.map((i) => i.name)).toEqual(['Lamp']);
    expect(h.state.tickets[0]).toMatchObject({ is_redeemed: true });
    expect(h.state.tickets[0]?.redeemed_at).not.toBeNull();

    const again = h.apply({ type: 'ticket.redeem', ticket_id: ticket?.id ?? '', card: { kind: 'character', id: hero.id } });
    expect(again).toEqual({ ok: false, error: { code: 'ticket/invalid', message: 'Invalid ticket or ticket already redeemed' } });

    h.create();
    const heroes = h.state.characters.filter((c) => c.name === 'Hero');
    expect(heroes).toHaveLength(1);
    expect(heroes[0]).toMatchObject({ card_type: 'permanent' });
    expect(h.state.items.some((i) => i.permanent_item_id !== null && i.name === 'Lamp')).toBe(true);
  });

  it('redeems an item as a permanent item, and refuses unknown cards with the spec texts', () => {
    const h = new Harness(testStory);
    winRun(h);
    const ticket = h.state.tickets[0]?.id ?? '';
    expect(h.apply({ type: 'ticket.redeem', ticket_id: ticket, card: { kind: 'character', id: '00000000-0000-4000-8000-00000000dead' } }))
      .toEqual({ ok: false, error: { code: 'ticket/character_not_found', message: 'Character not found in enrolled characters' } });
    const cloak = h.state.items.find((i) => i.name === 'Cloak');
    const r = h.ok({ type: 'ticket.redeem', ticket_id: ticket, card: { kind: 'item', id: cloak?.id ?? '' } });
    expect(r.redeemed?.permanent_items[0]).toMatchObject({ name: 'Cloak', player_permanent_character_id: null, redeemed_ticket_id: ticket });
    h.create({ reset_progress: true });
    expect(h.state.items.filter((i) => i.name === 'Cloak')).toHaveLength(1);
  });
});
