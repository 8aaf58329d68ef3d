import { describe, expect, it } from 'vitest';
import { progressCaption, storyProgress, type ProgressSource } from './progress.js';

const ids = ['m1', 'm2', 'm3', 'm4'];
const base: ProgressSource = { run: null, history: { runs: 0, best_rank: null, successful: 0 }, moments: [], completion_counts: {} };

describe('storyProgress', () => {
  it('is zero before any run', () => {
    expect(storyProgress('s', base, ids)).toMatchObject({ runs: 0, best_rank: null, moments_reached: 0, moments_total: 4, fraction: 0, ongoing_player_story_id: null });
  });

  it('counts distinct moments reached in the latest run and completed earlier, ignoring unknown ids', () => {
    const p = storyProgress('s', {
      run: { id: 'r2', loop_status: 'loopStatusOnGoing', loop_rank: null, is_successful_run: false },
      history: { runs: 1, best_rank: 3, successful: 1 },
      moments: [{ blueprint_moment_id: 'm1' }, { blueprint_moment_id: 'm2' }],
      completion_counts: { m1: 2, m3: 1, m4: 0, gone: 5 },
    }, ids);
    expect(p).toMatchObject({ runs: 2, best_rank: 'B', successful_runs: 1, moments_reached: 3, fraction: 0.75, ongoing_player_story_id: 'r2' });
  });

  it('takes the better of the latest rank and the history, and counts a won latest run', () => {
    const p = storyProgress('s', { ...base, run: { id: 'r', loop_status: 'loopStatusWon', loop_rank: 2, is_successful_run: true }, history: { runs: 2, best_rank: 4, successful: 0 } }, ids);
    expect(p).toMatchObject({ runs: 3, best_rank: 'A', successful_runs: 1, ongoing_player_story_id: null });
  });

  it('a story without moments has fraction 0', () => {
    expect(storyProgress('s', base, []).fraction).toBe(0);
  });

  it('caption', () => {
    expect(progressCaption({ runs: 1, moments_reached: 2, moments_total: 9 })).toBe('1 run · 2 of 9 moments reached');
    expect(progressCaption({ runs: 3, moments_reached: 0, moments_total: 9 })).toBe('3 runs · 0 of 9 moments reached');
  });
});
