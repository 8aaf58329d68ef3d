import { describe, expect, it } from 'vitest';
import { LOOP_STATUS } from '../schema/enums.js';
import { T, testStory } from './test-story.js';
import { Harness } from './test-harness.js';

/** Plays the intro (Monologue) and the Learn moment of a fresh run. */
function toCrossroad(h: Harness): void {
  h.start(); // Monologue completes on its opening
  if (h.moment?.blueprint_moment_id === T.learn) {
    h.start();
    h.say('understood', { outcome: 'complete' });
  }
  h.start(); // the Crossroad
}

describe('run creation (accounts spec §4)', () => {
  it('creates run 1 with the default max, default cards and the first moment', () => {
    const h = new Harness(testStory);
    const r = h.create();
    expect(r.run).toMatchObject({ loop_number: 1, loop_max_number_of_interactions: 30, loop_status: LOOP_STATUS.ongoing, loop_rank: null });
    expect(h.state.characters.map((c) => c.name).sort()).toEqual(['Hero', 'Sage']);
    expect(h.state.characters.every((c) => c.is_selected_in_assemble)).toBe(true);
    expect(h.state.items).toHaveLength(1);
    expect(h.state.items[0]).toMatchObject({ name: 'Lamp', source: 'free' });
    expect(h.moment?.blueprint_moment_id).toBe(T.intro);
    const persisted = r.effects.filter((e) => e.type === 'persist').map((e) => e.type === 'persist' && e.table);
    expect(persisted).toContain('player_stories');
    expect(persisted).toContain('player_moments');
  });

  it('uses 30 interactions when the story gives none, and a given first moment', () => {
    const story = { ...testStory, loop_max_number_of_interactions: undefined };
    const h = new Harness(story);
    const r = h.create({ first_moment_id: T.cross });
    expect(r.run?.loop_max_number_of_interactions).toBe(30);
    expect(h.moment?.blueprint_moment_id).toBe(T.cross);
  });

  it("fails with the spec's text when the first moment is missing", () => {
    const h = new Harness(testStory);
    const r = h.apply({ type: 'run.create', language: 'english', first_moment_id: '00000000-0000-4000-8000-999999999999' });
    expect(r).toEqual({ ok: false, error: { code: 'run/first_moment_missing', message: 'Starting momentDetails not found' } });
  });

  it('numbers runs from 1, copies cards from the latest run, and abandons an unfinished one', () => {
    const h = new Harness(testStory);
    h.create();
    toCrossroad(h);
    h.say('left', { outcome: 'complete', next_moment_id: T.reward });
    h.start();
    h.say('the cloak', { award: { reward_type: 'item', id: T.cloak } });
    const firstRun = h.state.run?.id;
    const second = h.create();
    expect(second.run?.loop_number).toBe(2);
    // The abandoned run is stored lost with rank F; the state keeps it summed up.
    const stored = second.effects.find((e) => e.type === 'persist' && e.table === 'player_stories' && e.row.id === firstRun);
    expect(stored?.type === 'persist' ? stored.row : null).toMatchObject({ loop_status: LOOP_STATUS.lost, loop_rank: 7 });
    expect(h.state.history).toEqual({ runs: 1, best_rank: 7, successful: 0 });
    expect(h.state.items.map((i) => i.name).sort()).toEqual(['Cloak', 'Lamp']);
    expect(h.state.items.every((i) => i.player_story_id === second.run?.id)).toBe(true);
  });

  it('does not copy cards in story-maker mode without persistence, nor after a progress reset', () => {
    for (const extra of [{ story_maker: { persist_items: false, persist_characters: false } }, { reset_progress: true }]) {
      const h = new Harness(testStory);
      h.create();
      toCrossroad(h);
      h.say('left', { outcome: 'complete', next_moment_id: T.reward });
      h.start();
      h.say('the cloak', { award: { reward_type: 'item', id: T.cloak } });
      h.create(extra);
      expect(h.state.items.map((i) => i.name)).toEqual(['Lamp']);
    }
  });
});

describe('moment flow and interactions (game spec §4)', () => {
  it('a Monologue completes on its opening and costs nothing', () => {
    const h = new Harness(testStory);
    h.create();
    const r = h.start({ reply: 'Welcome.' });
    expect(r.outputs[0]).toMatchObject({ complete_the_moment: true, next_moment_id: T.learn, dialogue: 'Welcome.', interaction_counted: false });
    expect(h.run.loop_current_number_of_interactions).toBe(0);
    expect(h.moment?.blueprint_moment_id).toBe(T.learn);
  });

  it('counts each player turn once; perfect answers and cache hits are free', () => {
    const h = new Harness(testStory);
    h.create();
    h.start();
    h.start();
    h.say('hmm');
    h.say('again', { cache_hit: true });
    h.say('yes', { perfect: true });
    expect(h.run.loop_current_number_of_interactions).toBe(1);
    const last = h.last?.ok ? h.last.outputs[0] : undefined;
    expect(last?.notifications.map((n) => n.kind)).toEqual(['perfect']);
  });

  it('refuses a replayed input and changes nothing', () => {
    const h = new Harness(testStory);
    h.create();
    h.start();
    h.start();
    const input = { type: 'turn' as const, input_id: '20000000-0000-4000-8000-000000000001', is_starting_dialogue: false, transcription: 'x', decision: { reply: 'r', emotion: 'normal' as const, intensity: 1 as const, outcome: 'continue' as const } };
    h.ok(input);
    const before = h.state;
    const again = h.apply(input);
    expect(again).toEqual({ ok: false, error: { code: 'turn/duplicate_input', message: 'This input was already processed.' } });
    expect(h.state).toBe(before);
  });

  it('appends the player line only when non-blank, different from the last entry, and history is non-empty', () => {
    const h = new Harness(testStory);
    h.create();
    h.start();
    h.start({ reply: 'Listen.' });
    h.say('   ', { reply: 'Speak up.' });
    h.say('Speak up.', { reply: 'Louder.' });
    h.say('understood', { reply: 'Good.', outcome: 'complete' });
    const learn = h.state.moments.find((m) => m.blueprint_moment_id === T.learn);
    expect(learn?.dialogue_history.map((e) => `${e.role}:${e.text}`)).toEqual([
      'model:Listen.', 'model:Speak up.', 'model:Louder.', 'player:understood', 'model:Good.',
    ]);
  });

  it('requires the starting dialogue before a player turn', () => {
    const h = new Harness(testStory);
    h.create();
    const r = h.apply({ type: 'turn', input_id: h.nextId(), is_starting_dialogue: false, transcription: 'hi', decision: { reply: '', emotion: 'normal', intensity: 1 as const, outcome: 'continue' as const } });
    expect(r.ok ? '' : r.error.code).toBe('turn/moment_not_started');
  });

  it('reaching the cap loses the run with rank F', () => {
    const h = new Harness({ ...testStory, loop_max_number_of_interactions: 3 });
    h.create();
    h.start();
    h.start();
    h.say('a');
    h.say('b');
    const r = h.say('c');
    expect(r.outputs[0]).toMatchObject({ loop_status: LOOP_STATUS.lost, loop_rank: 7, loop_current_number_of_interactions: 3 });
    expect(h.run.is_successful_run).toBe(false);
    expect(h.apply({ type: 'turn', input_id: h.nextId(), is_starting_dialogue: false, transcription: 'd', decision: { reply: '', emotion: 'normal', intensity: 1 as const, outcome: 'continue' as const } }).ok).toBe(false);
  });

  it('a Dead End loses the run on its opening', () => {
    const h = new Harness(testStory);
    h.create();
    toCrossroad(h);
    h.say('right', { outcome: 'complete', next_moment_id: T.deadEnd });
    expect(h.momentType()).toBe('Dead End');
    const r = h.start();
    expect(r.outputs[0]).toMatchObject({ end_of_game: true, loop_status: LOOP_STATUS.lost, loop_rank: 7 });
  });

  it('manual end marks the run lost with rank F', () => {
    const h = new Harness(testStory);
    h.create();
    h.ok({ type: 'run.end' });
    expect(h.run).toMatchObject({ loop_status: LOOP_STATUS.lost, is_successful_run: false, loop_rank: 7 });
    expect(h.apply({ type: 'run.end' }).ok).toBe(false);
  });
});

describe('auto-skip (game spec §4)', () => {
  it("skips a moment already completed skip_after_completion_count times, with '[Skipped: reason]'", () => {
    const h = new Harness(testStory);
    h.create();
    h.start();
    h.start();
    h.say('understood', { outcome: 'complete' });
    h.create();
    const r = h.start();
    expect(r.outputs[0]?.skipped_moments).toEqual([{ blueprint_moment_id: T.learn, reason: 'completed 1 times' }]);
    expect(h.moment?.blueprint_moment_id).toBe(T.cross);
    const skipped = h.state.moments.find((m) => m.blueprint_moment_id === T.learn);
    expect(skipped?.dialogue_history[0]?.text).toBe('[Skipped: completed 1 times]');
    expect(skipped?.completed_at).not.toBeNull();
  });
});

describe('row ids', () => {
  it('differ between users even when their states share a seed', () => {
    const a = new Harness(testStory, 42, 'user-a');
    const b = new Harness(testStory, 42, 'user-b');
    a.create();
    b.create();
    expect(a.run.id).not.toBe(b.run.id);
    expect(a.state.characters.map((c) => c.id)).not.toEqual(b.state.characters.map((c) => c.id));
  });
});
