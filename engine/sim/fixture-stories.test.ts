// The fixture stories, end to end offline: their test plans pass, simulations are deterministic and sensible, and
// every saved transcript replays through `step` to the same final state.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Story } from '../story/format.js';
import { parsePlan, runPlan } from '../story/testplan.js';
import type { GameState } from '../run/state.js';
import { step } from '../run/step.js';
import { Simulation, simulate } from './simulate.js';
import { parseTranscript, stateDigest, toJsonl, type TranscriptLine } from './transcript.js';

const ROOT = join(import.meta.dirname, '../../fixtures/stories');
const SLUGS = ['lantern-keeper', 'clockwork-siege'];
const stories = new Map(SLUGS.map((s) => [s, Story.parse(JSON.parse(readFileSync(join(ROOT, s, 'story.json'), 'utf8')))]));
const story = (slug: string): Story => stories.get(slug) as Story;

describe.each(SLUGS)('fixture story %s', (slug) => {
  it('passes every test plan it ships, and ships one that reaches the epilogue', () => {
    const plans = readdirSync(join(ROOT, slug)).filter((f) => f.endsWith('.testplan'));
    expect(plans.length).toBeGreaterThanOrEqual(2);
    let won = 0;
    for (const plan of plans) {
      const parsed = parsePlan(readFileSync(join(ROOT, slug, plan), 'utf8'));
      if (!parsed.ok) throw new Error(parsed.error);
      const r = runPlan(story(slug), parsed.steps);
      expect(r.failure, plan).toBeNull();
      if (r.state.run?.loop_status === 'loopStatusWon') won++;
    }
    expect(won).toBeGreaterThanOrEqual(1);
  });

  it('reports a tampered plan at its first mismatch', () => {
    const parsed = parsePlan('language english\nexpect moment Nowhere\n');
    if (!parsed.ok) throw new Error(parsed.error);
    const r = runPlan(story(slug), parsed.steps);
    expect(r.failure).toMatchObject({ line: 2, step: 'expect moment Nowhere' });
  });

  it('optimal play wins every run; random play never ranks better than optimal on the same seed', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1e6 }), (seed) => {
      const opt = simulate(story(slug), { runs: 5, seed, bot: 'optimal' });
      const rnd = simulate(story(slug), { runs: 5, seed, bot: 'random' });
      expect(opt.won).toBe(5);
      const worst = (r: typeof opt): number => Math.max(...Object.entries(r.ranks).filter(([, n]) => n > 0).map(([k]) => 'SABCDEF'.indexOf(k)));
      const best = (r: typeof opt): number => Math.min(...Object.entries(r.ranks).filter(([, n]) => n > 0).map(([k]) => 'SABCDEF'.indexOf(k)));
      expect(worst(opt)).toBeLessThanOrEqual(best(rnd));
    }), { numRuns: 5 });
  });

  it('every saved transcript replays to the same final state', () => {
    const logs: TranscriptLine[][] = [];
    const sim = new Simulation(story(slug), { runs: 6, seed: 11, bot: 'random', transcripts: true, onRun: (_i, _s, log) => log && logs.push(log) });
    for (let i = 0; i < 6; i++) sim.playRun();
    for (const log of logs) {
      const parsed = parseTranscript(toJsonl(log));
      if (!parsed.ok) throw new Error(parsed.error);
      const { header, events, final } = parsed.transcript;
      let s: GameState = header.initial_state;
      for (const e of events) {
        const r = step(s, e.event, { now: e.now, story: story(slug) });
        if (!r.ok) throw new Error(r.error.message);
        expect(r.outputs).toEqual(e.outputs);
        s = r.state;
        expect(stateDigest(s)).toBe(e.state_digest);
      }
      expect(stateDigest(s)).toBe(final?.state_digest);
    }
  });
});
