// Whole simulated runs per second on each fixture story, one core: bots speak through the scripted brain and the
// engine steps (no transcripts). Goal in the stories issue: 10,000 runs/s for a 15-moment story.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Story } from '../../engine/story/format.js';
import { Simulation } from '../../engine/sim/simulate.js';

const ROOT = join(import.meta.dirname, '../../fixtures/stories');

export async function run(opts: { durationMs?: number } = {}): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const slug of ['lantern-keeper', 'clockwork-siege']) {
    const story = Story.parse(JSON.parse(readFileSync(join(ROOT, slug, 'story.json'), 'utf8')));
    const row: Record<string, unknown> = { moments: story.moments.length };
    for (const bot of ['optimal', 'random'] as const) {
      const sim = new Simulation(story, { runs: 1e9, seed: 1, bot });
      for (let i = 0; i < 200; i++) sim.playRun(); // warm-up
      const t0 = performance.now();
      let n = 0;
      while (performance.now() - t0 < (opts.durationMs ?? 2000)) {
        sim.playRun();
        n++;
      }
      const seconds = (performance.now() - t0) / 1000;
      row[`${bot}_runs_per_second`] = Math.round(n / seconds);
      row[`${bot}_turns_per_run`] = Math.round((sim.summaries.slice(-n).reduce((a, s) => a + s.turns, 0) / n) * 10) / 10;
    }
    out[slug] = row;
  }
  await Promise.resolve();
  return out;
}
