// The simulation of two checkouts side by side, in one process: BEFORE (BENCH_SIM_BEFORE, the root of a pristine
// checkout of older code) and AFTER (BENCH_SIM_AFTER, this checkout by default).
//   - records: for both fixture stories, every bot and both languages, what each simulates from one seed
//     (scripts/bench/lib/sim-records.ts: the report, every run's summary and final state, and full transcripts of a
//     shorter series), compared byte for byte; the first differing line is shown when they differ;
//   - speed: the simulate bench's cases (optimal and random bots, lean and full mode), BEFORE and AFTER trials
//     alternating (ABBA...) so that the machine's other load falls on both alike; the best trial of each is kept.
// Knobs: BENCH_SIM_RUNS (1000), BENCH_SIM_TRANSCRIPT_RUNS (100), BENCH_SIM_SEED (7), BENCH_SIM_TRIALS (8),
// BENCH_SIM_TRIAL_MS (500), BENCH_SIM_PARTS (records,speed). Without BENCH_SIM_BEFORE the bench is skipped.
import os from 'node:os';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { PlayLanguage } from '../../engine/schema/enums.js';
import type { Simulation } from '../../engine/sim/simulate.js';
import type { Story } from '../../engine/story/format.js';
import { firstDifference, fixtureStory, loadSimCode, sha256, simRecords, type SimCode } from './lib/sim-records.js';
import { round } from './lib/stats.js';

const HERE = resolve(import.meta.dirname, '../..');
const STORIES = ['lantern-keeper', 'clockwork-siege'] as const;
const LANGUAGES: readonly PlayLanguage[] = ['english', 'french'];

const log = (msg: string): void => {
  process.stderr.write(`bench: simulate-compare: ${msg}\n`);
};

type Speed = { runs_per_second: number; runs_per_cpu_second: number };

/** One trial: whole runs for `ms` of wall time; runs per wall second and per CPU second of this thread. */
function trial(sim: Simulation, ms: number): Speed {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  let n = 0;
  while (performance.now() - t0 < ms) {
    sim.playRun();
    n++;
  }
  const c = process.cpuUsage(c0);
  return { runs_per_second: n / ((performance.now() - t0) / 1000), runs_per_cpu_second: n / ((c.user + c.system) / 1e6) };
}

function speed(codes: readonly [SimCode, SimCode], stories: readonly [Story, Story], bot: 'optimal' | 'random', lean: boolean, trials: number, ms: number): Record<string, unknown> {
  const sims = codes.map((code, i) => code.simulation(stories[i] as Story, { runs: 1e9, seed: 1, bot, lean }));
  for (const sim of sims) for (let i = 0; i < 300; i++) sim.playRun(); // warm-up
  const best: Speed[] = [{ runs_per_second: 0, runs_per_cpu_second: 0 }, { runs_per_second: 0, runs_per_cpu_second: 0 }];
  for (let t = 0; t < trials; t++) {
    // ABBA: each code goes first as often as the other.
    const order = t % 2 === 0 ? [0, 1] : [1, 0];
    for (const i of order) {
      const s = trial(sims[i] as Simulation, ms);
      const b = best[i] as Speed;
      b.runs_per_second = Math.max(b.runs_per_second, s.runs_per_second);
      b.runs_per_cpu_second = Math.max(b.runs_per_cpu_second, s.runs_per_cpu_second);
    }
  }
  const [before, after] = best.map((b) => ({ runs_per_second: Math.round(b.runs_per_second), runs_per_cpu_second: Math.round(b.runs_per_cpu_second) })) as [Speed, Speed];
  return { before, after, after_over_before_cpu: round(after.runs_per_cpu_second / before.runs_per_cpu_second, 3) };
}

export async function run(): Promise<Record<string, unknown>> {
  const beforeRoot = process.env.BENCH_SIM_BEFORE;
  if (!beforeRoot) return { name: 'simulate-compare', skipped: 'BENCH_SIM_BEFORE (the root of the code to compare with) is not set' };
  const afterRoot = resolve(process.env.BENCH_SIM_AFTER ?? HERE);
  const runs = Number(process.env.BENCH_SIM_RUNS ?? 1000);
  const transcriptRuns = Number(process.env.BENCH_SIM_TRANSCRIPT_RUNS ?? 100);
  const seed = Number(process.env.BENCH_SIM_SEED ?? 7);
  const trials = Number(process.env.BENCH_SIM_TRIALS ?? 8);
  const trialMs = Number(process.env.BENCH_SIM_TRIAL_MS ?? 500);
  const parts = (process.env.BENCH_SIM_PARTS ?? 'records,speed').split(',').map((p) => p.trim());
  const began = performance.now();
  const load = os.loadavg()[0] ?? 0;
  const codes = [await loadSimCode(resolve(beforeRoot)), await loadSimCode(afterRoot)] as const;
  const bots = codes[0].bots.filter((b) => codes[1].bots.includes(b));
  const out: Record<string, unknown> = {
    name: 'simulate-compare',
    before: codes[0].root, after: codes[1].root,
    records: { runs, transcript_runs: transcriptRuns, seed, bots, languages: LANGUAGES },
  };
  const cases: Record<string, unknown>[] = [];
  let identical = true;
  for (const slug of parts.includes('records') ? STORIES : []) {
    const stories = [fixtureStory(codes[0], slug), fixtureStory(codes[1], slug)] as const;
    for (const bot of bots) {
      for (const language of LANGUAGES) {
        const c = { story: slug, bot, language };
        const [b, a] = [simRecords(codes[0], stories[0], c, { runs, transcriptRuns, seed }), simRecords(codes[1], stories[1], c, { runs, transcriptRuns, seed })];
        const row: Record<string, unknown> = { ...c };
        for (const part of ['runs', 'transcripts'] as const) {
          const diff = firstDifference(b[part], a[part]);
          if (diff) identical = false;
          row[part] = { lines: [b[part].length, a[part].length], sha256: [sha256(b[part]).slice(0, 16), sha256(a[part]).slice(0, 16)], identical: diff === null, ...(diff ? { first_difference: diff } : {}) };
        }
        log(`${slug} ${bot} ${language}: ${(row.runs as { identical: boolean }).identical && (row.transcripts as { identical: boolean }).identical ? 'identical' : 'DIFFERENT'}`);
        cases.push(row);
      }
    }
  }
  if (parts.includes('records')) {
    out.records_identical = identical;
    out.cases = cases;
  }
  const speeds: Record<string, unknown> = { trials, trial_ms: trialMs };
  for (const slug of parts.includes('speed') ? STORIES : []) {
    const stories = [fixtureStory(codes[0], slug), fixtureStory(codes[1], slug)] as const;
    const row: Record<string, unknown> = {};
    for (const bot of ['optimal', 'random'] as const) {
      row[bot] = { lean: speed(codes, stories, bot, true, trials, trialMs), full: speed(codes, stories, bot, false, trials, trialMs) };
      log(`${slug} ${bot}: speed measured`);
    }
    speeds[slug] = row;
  }
  if (parts.includes('speed')) out.speed = speeds;
  out.machine_load_avg_1m = { before: round(load, 2), after: round(os.loadavg()[0] ?? 0, 2) };
  out.total_s = round((performance.now() - began) / 1000, 1);
  return out;
}
