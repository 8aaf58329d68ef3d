import { describe, expect, it } from 'vitest';
import { testStory } from '../run/test-story.js';
import { simulate } from './simulate.js';

describe('simulate', () => {
  it('plays whole runs for each bot and reports ranks, win rate and coverage', () => {
    for (const bot of ['optimal', 'greedy', 'random'] as const) {
      const r = simulate({ ...testStory, loop_max_number_of_interactions: 100 }, { runs: 30, seed: 7, bot });
      expect(r.runs).toBe(30);
      expect(Object.values(r.ranks).reduce((a, b) => a + b, 0)).toBe(30);
      expect(r.won + r.lost).toBe(30);
      if (bot === 'optimal') {
        expect(r.won).toBe(30);
        expect(r.runs_until_first_rank_a).not.toBeNull();
        expect(r.tickets_earned).toBe(1);
      }
    }
  });

  it('is deterministic for a seed', () => {
    expect(simulate(testStory, { runs: 20, seed: 3, bot: 'random' })).toEqual(simulate(testStory, { runs: 20, seed: 3, bot: 'random' }));
  });
});
