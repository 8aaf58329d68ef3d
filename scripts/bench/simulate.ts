// Whole simulated runs per second on each fixture story, on one core: bots speak through the scripted brain and the
// engine steps, in lean mode (the same rules and states, no outputs or effects built: engine/sim/lean.test.ts) and in
// full mode (what a server turn builds). Goal (speed issue): 10,000 runs/s for clockwork-siege (15 moments) with the
// optimal and the random bot.
// Two figures per case: runs per second of wall time, and runs per second of this thread's CPU time ("on one
// core": on a machine shared with other work, the wall figure also counts the time the thread was not running).
// Each case is measured in several short trials and the best trial is kept (others' load only ever slows a trial).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Story } from '../../engine/story/format.js';
import { Simulation } from '../../engine/sim/simulate.js';

const ROOT = join(import.meta.dirname, '../../fixtures/stories');
const GOAL = 10_000;

type Case = { runs_per_second: number; runs_per_cpu_second: number; turns_per_run: number };

function measure(story: Story, bot: 'optimal' | 'random', lean: boolean, trials: number, trialMs: number): Case {
  const sim = new Simulation(story, { runs: 1e9, seed: 1, bot, lean });
  for (let i = 0; i < 300; i++) sim.playRun(); // warm-up
  let wall = 0;
  let cpu = 0;
  let turns = 0;
  let runs = 0;
  for (let t = 0; t < trials; t++) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    let n = 0;
    while (performance.now() - t0 < trialMs) {
      sim.playRun();
      n++;
    }
    const c = process.cpuUsage(c0);
    wall = Math.max(wall, n / ((performance.now() - t0) / 1000));
    cpu = Math.max(cpu, n / ((c.user + c.system) / 1e6));
    turns += sim.summaries.slice(-n).reduce((a, s) => a + s.turns, 0);
    runs += n;
  }
  return { runs_per_second: Math.round(wall), runs_per_cpu_second: Math.round(cpu), turns_per_run: Math.round((turns / runs) * 10) / 10 };
}

export async function run(opts: { trials?: number; trialMs?: number } = {}): Promise<Record<string, unknown>> {
  const trials = opts.trials ?? Number(process.env.BENCH_SIM_TRIALS ?? 8);
  const trialMs = opts.trialMs ?? Number(process.env.BENCH_SIM_TRIAL_MS ?? 500);
  const out: Record<string, unknown> = { trials, trial_ms: trialMs };
  for (const slug of ['lantern-keeper', 'clockwork-siege']) {
    const story = Story.parse(JSON.parse(readFileSync(join(ROOT, slug, 'story.json'), 'utf8')));
    const row: Record<string, unknown> = { moments: story.moments.length };
    for (const bot of ['optimal', 'random'] as const) {
      row[bot] = { lean: measure(story, bot, true, trials, trialMs), full: measure(story, bot, false, trials, trialMs) };
    }
    out[slug] = row;
  }
  const cs = out['clockwork-siege'] as Record<'optimal' | 'random', { lean: Case }>;
  out.goal = {
    goal: `clockwork-siege, lean mode, >= ${GOAL} runs/s on one core, optimal and random bots`,
    optimal_runs_per_cpu_second: cs.optimal.lean.runs_per_cpu_second,
    random_runs_per_cpu_second: cs.random.lean.runs_per_cpu_second,
    met: cs.optimal.lean.runs_per_cpu_second >= GOAL && cs.random.lean.runs_per_cpu_second >= GOAL,
  };
  await Promise.resolve();
  return out;
}
