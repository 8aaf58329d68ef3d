import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  RESET_PROGRESS_CONFIRM, type RunSummary, beatRankLabel, bestRun, compareBestRun, gamePath, launchPath, launchState,
  runLabel, sortBestFirst,
} from './launch.js';

const run = (id: string, over: Partial<RunSummary> = {}): RunSummary => ({
  id, is_successful_run: false, loop_rank: null, loop_status: 'loopStatusLost', created_at: '2025-01-01T00:00:00.000Z', ...over,
});

describe('launch state', () => {
  it("FRESH with no run: 'start your first game'", () => {
    expect(launchState([])).toEqual({ state: 'FRESH', continueRunId: null, buttons: [{ action: 'start_first', label: 'start your first game' }] });
  });

  it("COMPLETED when any run succeeded: 'start a new run', 'reset all progress'", () => {
    const c = launchState([
      run('a', { loop_status: 'loopStatusLost', created_at: '2025-02-01T00:00:00Z' }),
      run('b', { is_successful_run: true, loop_status: 'loopStatusWon', created_at: '2025-01-01T00:00:00Z' }),
    ]);
    expect(c.state).toBe('COMPLETED');
    expect(c.buttons.map((b) => b.label)).toEqual(['start a new run', 'reset all progress']);
  });

  it('ONGOING when the latest run is in progress, even after a success (the spec would hide its continue)', () => {
    const c = launchState([
      run('won', { is_successful_run: true, loop_status: 'loopStatusWon', created_at: '2025-01-01T00:00:00Z' }),
      run('now', { loop_status: 'loopStatusOnGoing', created_at: '2025-02-01T00:00:00Z' }),
    ]);
    expect(c).toMatchObject({ state: 'ONGOING', continueRunId: 'now' });
  });

  it("ONGOING for the first ongoing run: 'continue', 'start a new run', 'reset all progress'", () => {
    const c = launchState([run('old', { loop_status: 'loopStatusOnGoing', created_at: '2025-01-01T00:00:00Z' }), run('new', { loop_status: 'loopStatusOnGoing', created_at: '2025-02-01T00:00:00Z' })]);
    expect(c).toMatchObject({ state: 'ONGOING', continueRunId: 'new' });
    expect(c.buttons.map((b) => b.label)).toEqual(['continue', 'start a new run', 'reset all progress']);
  });

  it('ONGOING even when a ranked lost run sorts ahead of the unranked run in progress', () => {
    const c = launchState([run('lost', { loop_rank: 5 }), run('current', { loop_status: 'loopStatusOnGoing' })]);
    expect(c).toMatchObject({ state: 'ONGOING', continueRunId: 'current' });
  });

  it('COMPLETED when every run is lost or won', () => {
    expect(launchState([run('a'), run('b', { loop_status: 'loopStatusWon' })]).state).toBe('COMPLETED');
  });

  it('asks to confirm a reset with the spec title', () => {
    expect(RESET_PROGRESS_CONFIRM.title).toBe('Reset All Progress?');
    expect(RESET_PROGRESS_CONFIRM.body).toContain('permanently reset');
  });

  it('navigates to /game/{playerStoryId} and back to /launch/{blueprintStoryId}', () => {
    expect(gamePath('ps-1')).toBe('/game/ps-1');
    expect(launchPath('bs-1')).toBe('/launch/bs-1');
  });
});

describe('best run ordering', () => {
  it('is is_successful_run descending, loop_rank ascending with nulls last, created_at descending', () => {
    const runs = [
      run('lost-unranked-new', { created_at: '2025-03-01T00:00:00Z' }),
      run('lost-B', { loop_rank: 3 }),
      run('won-C', { is_successful_run: true, loop_rank: 4 }),
      run('won-A-old', { is_successful_run: true, loop_rank: 2, created_at: '2025-01-01T00:00:00Z' }),
      run('won-A-new', { is_successful_run: true, loop_rank: 2, created_at: '2025-02-01T00:00:00Z' }),
      run('lost-unranked-old', { created_at: '2024-12-01T00:00:00Z' }),
    ];
    expect(sortBestFirst(runs).map((r) => r.id)).toEqual(['won-A-new', 'won-A-old', 'won-C', 'lost-B', 'lost-unranked-new', 'lost-unranked-old']);
    expect(bestRun(runs)?.id).toBe('won-A-new');
    expect(bestRun([])).toBeNull();
  });

  it('property: a total order (antisymmetric, and sorting is idempotent)', () => {
    const arbRun = fc.record({
      id: fc.uuid(), is_successful_run: fc.boolean(), loop_rank: fc.option(fc.integer({ min: 1, max: 7 }), { nil: null }),
      loop_status: fc.constantFrom('loopStatusOnGoing', 'loopStatusWon', 'loopStatusLost'),
      created_at: fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
    });
    fc.assert(fc.property(fc.array(arbRun, { maxLength: 20 }), (runs) => {
      for (const a of runs) for (const b of runs) expect(Math.sign(compareBestRun(a, b)) + Math.sign(compareBestRun(b, a))).toBe(0);
      const once = sortBestFirst(runs);
      expect(sortBestFirst(once)).toEqual(once);
      const state = launchState(runs).state;
      const latest = [...runs].sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at))[0];
      if (runs.length === 0) expect(state).toBe('FRESH');
      else if (latest?.loop_status === 'loopStatusOnGoing') expect(state).toBe('ONGOING');
      else if (runs.some((r) => r.is_successful_run)) expect(state).toBe('COMPLETED');
      else expect(state).toBe(runs.some((r) => r.loop_status === 'loopStatusOnGoing') ? 'ONGOING' : 'COMPLETED');
    }));
  });
});

describe('start screen texts', () => {
  it("reads 'Run {n}' (default 1) and 'Beat rank {letter}' (default F)", () => {
    expect(runLabel(4)).toBe('Run 4');
    expect(runLabel(null)).toBe('Run 1');
    expect(runLabel(undefined)).toBe('Run 1');
    expect(beatRankLabel(2)).toBe('Beat rank A');
    expect(beatRankLabel(null)).toBe('Beat rank F');
  });
});
