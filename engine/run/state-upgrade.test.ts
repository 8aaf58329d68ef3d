// State format 1 kept every earlier run's row in the state (past_runs), so each turn wrote more as runs piled up.
// Format 2 sums them up (history). A saved v1 state loads as v2 with the same facts; a v1 transcript still replays
// with the same outputs (its digests, of v1 states, are not compared).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replayOffline } from '../sim/replay.js';
import { Simulation } from '../sim/simulate.js';
import { parseTranscript, toJsonl, type TranscriptLine } from '../sim/transcript.js';
import { Story } from '../story/format.js';
import { GameState } from './state.js';

const story = Story.parse(JSON.parse(readFileSync(join(import.meta.dirname, '../../fixtures/stories/lantern-keeper/story.json'), 'utf8')));

/** A v2 state written back as v1, with these earlier run rows. */
function asV1(s: GameState, past: unknown[]): Record<string, unknown> {
  const { history: _h, ...rest } = s;
  return { ...rest, version: 1, past_runs: past };
}

describe('state format 1', () => {
  it('loads as format 2, its earlier runs summed up', () => {
    const sim = new Simulation(story, { runs: 3, seed: 5, bot: 'optimal' });
    const rows: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      sim.playRun();
      if (sim.state.run) rows.push({ ...sim.state.run, loop_rank: i === 1 ? 4 : 3, is_successful_run: i !== 2 });
    }
    const loaded = GameState.parse(asV1(sim.state, rows));
    expect(loaded.version).toBe(3);
    expect(loaded.history).toEqual({ runs: 3, best_rank: 3, successful: 2 });
    expect(GameState.parse(asV1(sim.state, [])).history).toEqual({ runs: 0, best_rank: null, successful: 0 });
  });

  it('a format-1 transcript replays with the same outputs; its digests are not compared', () => {
    let lines: TranscriptLine[] = [];
    const sim = new Simulation(story, { runs: 2, seed: 9, bot: 'optimal', transcripts: true, onRun: (_i, _s, t) => (lines = t ?? []) });
    sim.playRun();
    const earlier = sim.state.run;
    sim.playRun();
    const text = toJsonl(lines).split('\n').filter(Boolean).map((l, i) => {
      if (i > 0) return l;
      const h = JSON.parse(l) as { initial_state: GameState };
      return JSON.stringify({ ...h, initial_state: asV1(h.initial_state, [earlier]) });
    }).join('\n');
    const parsed = parseTranscript(text);
    if (!parsed.ok) throw new Error(parsed.error);
    expect(parsed.transcript.olderStates).toBe(true);
    expect(parsed.transcript.header.initial_state.history.runs).toBe(1);
    const r = replayOffline(story, parsed.transcript);
    expect(r.diverged).toEqual([]);
    expect(r.replayed).toBe(parsed.transcript.events.length);
    expect(r.final_digest_matches).toBeNull();
  });
});

// Format 3: the auto-skip log keeps only entries of the last 5000 ms (the only ones recentlySkipped looks at); format 2
// kept the last 100, so the state, and every turn's write, grew by about 8 KB over the first hundred runs.
describe('state format 3', () => {
  it('a format-2 state loads as format 3, unchanged otherwise', () => {
    const sim = new Simulation(story, { runs: 2, seed: 5, bot: 'optimal' });
    sim.playRun();
    const v2 = { ...sim.state, version: 2, skip_log: [{ blueprint_moment_id: 'm', at: 1 }] };
    expect(GameState.parse(v2)).toEqual({ ...sim.state, skip_log: [{ blueprint_moment_id: 'm', at: 1 }] });
  });

  it('the state does not grow with the runs played', () => {
    const sim = new Simulation(story, { runs: 300, seed: 11, bot: 'random' });
    const size = (): number => JSON.stringify(sim.state).length;
    for (let i = 0; i < 5; i++) sim.playRun();
    const sizes: number[] = [];
    for (let i = 5; i < 300; i++) {
      sim.playRun();
      sizes.push(size());
    }
    expect(sim.state.skip_log.length).toBeLessThanOrEqual(5);
    // Run to run the state varies by a few % with the path taken (moments, cards, lines used). Format 2's log added
    // about 8 KB between these windows (over 30% of the state).
    const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean(sizes.slice(-50)) / mean(sizes.slice(15, 65))).toBeLessThan(1.15);
  });

  it('a format-2 transcript replays with the same outputs; its digests are not compared', () => {
    let lines: TranscriptLine[] = [];
    const sim = new Simulation(story, { runs: 2, seed: 9, bot: 'optimal', transcripts: true, onRun: (_i, _s, t) => (lines = t ?? []) });
    sim.playRun();
    sim.playRun();
    const text = toJsonl(lines).split('\n').filter(Boolean).map((l, i) => {
      if (i > 0) return l;
      const h = JSON.parse(l) as { initial_state: GameState };
      return JSON.stringify({ ...h, initial_state: { ...h.initial_state, version: 2 } });
    }).join('\n');
    const parsed = parseTranscript(text);
    if (!parsed.ok) throw new Error(parsed.error);
    expect(parsed.transcript.olderStates).toBe(true);
    const r = replayOffline(story, parsed.transcript);
    expect(r.diverged).toEqual([]);
    expect(r.final_digest_matches).toBeNull();
  });
});
