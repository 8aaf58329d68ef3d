// Properties of the whole engine over random play (fast-check drives the seeds; a failure prints seed and path).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SeededRandom } from '../random.js';
import { LOOP_STATUS } from '../schema/enums.js';
import type { GameEvent } from './events.js';
import { GameEvent as GameEventSchema } from './events.js';
import { GameState, initialState } from './state.js';
import type { PlayerStory } from '../schema/player.js';
import { step } from './step.js';
import { randomEvent } from './test-bot.js';
import { testStory } from './test-story.js';

type Played = {
  events: GameEvent[]; times: number[]; states: GameState[]; final: GameState; outputs: ReturnType<typeof step>[];
  /** Every run's row after each successful step (the state keeps only the latest run; the others are in the store). */
  runs: PlayerStory[][];
};

/** Plays `n` random events from a fresh state; failed steps (expected refusals) are kept out of the log. */
function play(seed: number, n: number): Played {
  const r = new SeededRandom(seed);
  let s = initialState('user-1', testStory.id, seed ^ 0x5bd1e995);
  let now = Date.UTC(2026, 0, 1);
  const events: GameEvent[] = [];
  const times: number[] = [];
  const states: GameState[] = [s];
  const outputs: ReturnType<typeof step>[] = [];
  const rows = new Map<string, PlayerStory>();
  const runs: PlayerStory[][] = [[]];
  for (let i = 0; i < n; i++) {
    const ev = GameEventSchema.parse(randomEvent(s, testStory, r));
    now += 500 + r.int(9000);
    const res = step(s, ev, { now, story: testStory });
    outputs.push(res);
    if (!res.ok) continue;
    s = res.state;
    events.push(ev);
    times.push(now);
    states.push(s);
    for (const e of res.effects) if (e.type === 'persist' && e.table === 'player_stories') rows.set(e.row.id, e.row as unknown as PlayerStory);
    runs.push([...rows.values()]);
  }
  return { events, times, states, final: s, outputs, runs };
}

function replay(seed: number, events: readonly GameEvent[], times: readonly number[], from?: GameState): GameState {
  let s = from ?? initialState('user-1', testStory.id, seed ^ 0x5bd1e995);
  events.forEach((ev, i) => {
    const res = step(s, ev, { now: times[i] ?? 0, story: testStory });
    if (!res.ok) throw new Error(`replay diverged at ${i}: ${res.error.code}`);
    s = res.state;
  });
  return s;
}

const seeds = fc.integer({ min: 0, max: 0x7fffffff });

describe('engine properties', () => {
  it('interactions never exceed the cap', () => {
    fc.assert(fc.property(seeds, (seed) => {
      for (const runs of play(seed, 150).runs) {
        for (const run of runs) expect(run.loop_current_number_of_interactions).toBeLessThanOrEqual(run.loop_max_number_of_interactions);
      }
    }), { numRuns: 60 });
  });

  it('free interactions (perfect answer or cache hit) never count', () => {
    fc.assert(fc.property(seeds, (seed) => {
      const p = play(seed, 150);
      for (const res of p.outputs) {
        if (!res.ok) continue;
        for (const o of res.outputs) {
          if (o.is_starting_dialogue) expect(o.interaction_counted).toBe(false);
          else expect(o.interaction_counted).toBe(!(o.was_perfect_answer || o.was_cache_hit));
        }
      }
    }), { numRuns: 60 });
  });

  it('a finished run stays finished, with its rank', () => {
    fc.assert(fc.property(seeds, (seed) => {
      const seen = new Map<string, { status: string; rank: number | null }>();
      for (const runs of play(seed, 200).runs) {
        for (const run of runs) {
          const before = seen.get(run.id);
          if (before && before.status !== LOOP_STATUS.ongoing) expect({ status: run.loop_status, rank: run.loop_rank }).toEqual(before);
          if (run.loop_status !== LOOP_STATUS.ongoing) expect(run.loop_rank).not.toBeNull();
          seen.set(run.id, { status: run.loop_status, rank: run.loop_rank });
        }
      }
    }), { numRuns: 60 });
  });

  it('at most one golden ticket per user and story, redeemed at most once', () => {
    fc.assert(fc.property(seeds, (seed) => {
      const p = play(seed, 300);
      for (const s of p.states) expect(s.tickets.length).toBeLessThanOrEqual(1);
      const redeemed = p.events.filter((e) => e.type === 'ticket.redeem').length;
      expect(redeemed).toBeLessThanOrEqual(1);
    }), { numRuns: 40 });
  });

  it('a saved event log replayed through step reproduces the final state exactly', () => {
    fc.assert(fc.property(seeds, (seed) => {
      const p = play(seed, 150);
      expect(replay(seed, p.events, p.times)).toEqual(p.final);
    }), { numRuns: 40 });
  });

  it('state saved to JSON and loaded back plays on identically', () => {
    fc.assert(fc.property(seeds, fc.nat(), (seed, cut) => {
      const p = play(seed, 150);
      const k = p.events.length === 0 ? 0 : cut % p.events.length;
      const mid = replay(seed, p.events.slice(0, k), p.times.slice(0, k));
      const loaded = GameState.parse(JSON.parse(JSON.stringify(mid)));
      expect(loaded).toEqual(mid);
      expect(replay(seed, p.events.slice(k), p.times.slice(k), loaded)).toEqual(p.final);
    }), { numRuns: 40 });
  });

  it('a failed step never changes the state', () => {
    fc.assert(fc.property(seeds, (seed) => {
      const p = play(seed, 100);
      const s = p.final;
      const frozen = JSON.stringify(s);
      const dup = p.events.find((e) => e.type === 'turn');
      if (dup) {
        const res = step(s, dup, { now: 0, story: testStory });
        if (!res.ok) expect(JSON.stringify(s)).toBe(frozen);
      }
    }), { numRuns: 30 });
  });
});
