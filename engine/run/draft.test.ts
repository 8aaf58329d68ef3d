import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PlayerStory } from '../schema/player.js';
import { Story } from '../story/format.js';
import { Draft, isoTime } from './draft.js';
import { initialState, type GameState } from './state.js';

describe('isoTime', () => {
  it('equals Date#toISOString', () => {
    fc.assert(fc.property(fc.integer({ min: -1e13, max: 3e14 }), (ms) => {
      expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    }), { numRuns: 2000 });
    for (const ms of [0, 1, 999, 86_399_999, 86_400_000, Date.UTC(2026, 0, 1), 253_402_300_799_999]) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    expect(() => isoTime(NaN)).toThrow(RangeError);
  });
});

describe('Draft.update', () => {
  const story = Story.parse(JSON.parse(readFileSync(join(import.meta.dirname, '../../fixtures/stories/clockwork-siege/story.json'), 'utf8')));
  const run = (id: string): PlayerStory => ({
    id, user_id: 'u', blueprint_story_id: story.id, language: 'english', loop_number: 1, loop_rank: null, loop_status: 'loopStatusOnGoing',
    loop_current_number_of_interactions: 0, loop_max_number_of_interactions: 30, is_successful_run: false, reset_progress: false,
    is_story_maker: false, current_player_moment_id: null, perfect_answers: 0, battles_won: 0, clean_battles_won: 0, burn_outs: 0,
    created_at: '2026-01-01T00:00:00.000Z', ended_at: null,
  });
  const changes = fc.record({
    loop_current_number_of_interactions: fc.nat(50), perfect_answers: fc.nat(9), loop_rank: fc.option(fc.integer({ min: 1, max: 7 })),
    ended_at: fc.option(fc.constant('2026-01-02T00:00:00.000Z')),
  }, { requiredKeys: [] });

  it('is put({ ...row, ...changes }); a mutable step changes the row in place, a copying step never changes the state it was given', () => {
    fc.assert(fc.property(fc.array(changes, { minLength: 1, maxLength: 4 }), fc.boolean(), (patches, lean) => {
      const state: GameState = { ...initialState('u', story.id, 7), run: run('00000000-0000-4000-8000-000000000001') };
      const frozen = JSON.stringify(state);
      const copying = new Draft(state, { now: 0, story, lean });
      const inPlace = new Draft({ ...state, run: { ...state.run as PlayerStory } }, { now: 0, story, lean, mutable: true });
      let expected = state.run as PlayerStory;
      for (const p of patches) {
        expected = { ...expected, ...p };
        const a = copying.update('player_stories', copying.state.run as PlayerStory, p);
        const before = inPlace.state.run;
        const b = inPlace.update('player_stories', inPlace.state.run as PlayerStory, p);
        expect(b).toBe(before);
        expect(JSON.stringify(a)).toBe(JSON.stringify(expected));
        expect(JSON.stringify(b)).toBe(JSON.stringify(expected));
      }
      expect(JSON.stringify(copying.state.run)).toBe(JSON.stringify(expected));
      expect(JSON.stringify(state)).toBe(frozen);
      expect(copying.effects.length).toBe(lean ? 0 : patches.length);
    }), { numRuns: 300 });
  });

  it('copies a row that is no longer the one in its table, even in a mutable step', () => {
    const state: GameState = { ...initialState('u', story.id, 7), run: run('00000000-0000-4000-8000-000000000001') };
    const d = new Draft(state, { now: 0, story, lean: true, mutable: true });
    const stale = d.state.run as PlayerStory;
    d.put('player_stories', { ...stale, perfect_answers: 1 });
    const next = d.update('player_stories', stale, { burn_outs: 2 });
    expect(next).not.toBe(stale);
    expect(stale.burn_outs).toBe(0);
    expect(d.state.run).toBe(next);
    expect(next.perfect_answers).toBe(0);
  });
});
