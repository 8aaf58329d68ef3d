// Lean mode runs the same rules (the same step, the same brain) without building outputs or effects: it must end
// every run in the state full mode ends in. 1,000 seeded runs of clockwork-siege (the bench's story: battles, upgrades,
// tickets), with the optimal and the random bot, state digest after every run. Lean simulations also step in place
// (StepContext.mutable), so this checks the in-place steps too.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Story } from '../story/format.js';
import { scriptedTurn } from './play-turn.js';
import { Simulation } from './simulate.js';
import { stateDigest } from './transcript.js';

const load = (slug: string): Story => Story.parse(JSON.parse(readFileSync(join(import.meta.dirname, `../../fixtures/stories/${slug}/story.json`), 'utf8')));
const story = load('clockwork-siege');
const lantern = load('lantern-keeper');

function digests(bot: 'optimal' | 'random' | 'greedy', seed: number, runs: number, lean: boolean, s = story, maxTurnsPerRun?: number): string[] {
  const sim = new Simulation(s, { runs, seed, bot, lean, ...(maxTurnsPerRun ? { maxTurnsPerRun } : {}) });
  const out: string[] = [];
  const states = [];
  for (let i = 0; i < runs; i++) {
    sim.playRun();
    out.push(stateDigest(sim.state));
    states.push(sim.state);
  }
  // A lean simulation changes the run's state in place while it plays (StepContext.mutable), never a state it has
  // handed out: every state seen after a run still has its digest.
  expect(states.map((s) => stateDigest(s))).toEqual(out);
  return out;
}

describe('lean simulation', () => {
  it('ends 1,000 seeded runs in the same states as full mode', () => {
    let compared = 0;
    for (const bot of ['optimal', 'random'] as const) {
      // 10 players per bot, each 50 runs in a row (history, tickets and permanent cards carry over between runs).
      for (let seed = 1; seed <= 10; seed++) {
        expect(digests(bot, seed, 50, true)).toEqual(digests(bot, seed, 50, false));
        compared += 50;
      }
    }
    expect(compared).toBe(1000);
  });

  it('in-place (lean) and copying (full) simulations agree for any story, bot, seed and turn cap (property)', () => {
    fc.assert(fc.property(
      fc.constantFrom(story, lantern), fc.constantFrom('optimal' as const, 'random' as const, 'greedy' as const),
      fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: 1, max: 6 }), fc.option(fc.integer({ min: 2, max: 40 }), { nil: undefined }),
      (s, bot, seed, runs, cap) => {
        expect(digests(bot, seed, runs, true, s, cap)).toEqual(digests(bot, seed, runs, false, s, cap));
      },
    ), { numRuns: 60 });
  });

  it('a lean step builds no outputs and records no effects, and leaves the same state', () => {
    const sim = new Simulation(story, { runs: 1, seed: 3, bot: 'optimal', lean: false });
    let checked = 0;
    sim.opts.onTurn = (state) => {
      const input = { input_id: `00000000-0000-4000-8000-${String(++checked).padStart(12, '0')}`, transcription: 'attack', is_starting_dialogue: false };
      const full = scriptedTurn(state, story, input, 1_000_000);
      const lean = scriptedTurn(state, story, input, 1_000_000, true);
      expect(lean.result.ok).toBe(full.result.ok);
      if (!full.result.ok || !lean.result.ok) return;
      expect(full.result.outputs.length).toBeGreaterThan(0);
      expect(full.result.effects.length).toBeGreaterThan(0);
      expect(lean.result.outputs).toEqual([]);
      expect(lean.result.effects).toEqual([]);
      expect(stateDigest(lean.result.state)).toBe(stateDigest(full.result.state));
    };
    sim.playRun();
    expect(checked).toBeGreaterThan(5);
  });
});
