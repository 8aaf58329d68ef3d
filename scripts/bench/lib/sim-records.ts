// What a simulation records, from any checkout's engine (this one, or a pristine checkout of older code loaded by its
// root), as text that can be compared byte for byte: for each fixture story, bot and language, the report `looptale
// simulate --json` prints, every run's summary and final state (lean mode, the bench's way), and every event of a
// shorter series of runs with its outputs and state (full mode, the transcripts `looptale replay` reads).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PlayLanguage } from '../../../engine/schema/enums.js';
import type { BotName } from '../../../engine/sim/bots.js';
import type { SimulateOptions, Simulation } from '../../../engine/sim/simulate.js';
import type { Story } from '../../../engine/story/format.js';

/** One checkout's simulation: its story parser and Simulation class. */
export type SimCode = {
  root: string;
  bots: readonly BotName[];
  parseStory(json: unknown): Story;
  simulation(story: Story, opts: SimulateOptions): Simulation;
};

export async function loadSimCode(root: string): Promise<SimCode> {
  const load = async <T>(rel: string): Promise<T> => (await import(pathToFileURL(join(root, rel)).href)) as T;
  const format = await load<{ Story: { parse(x: unknown): Story } }>('engine/story/format.ts');
  const sim = await load<{ Simulation: new (story: Story, opts: SimulateOptions) => Simulation }>('engine/sim/simulate.ts');
  const bots = await load<{ BOT_NAMES: readonly BotName[] }>('engine/sim/bots.ts');
  return {
    root,
    bots: bots.BOT_NAMES,
    parseStory: (json) => format.Story.parse(json),
    simulation: (story, opts) => new sim.Simulation(story, opts),
  };
}

export function fixtureStory(code: SimCode, slug: string): Story {
  return code.parseStory(JSON.parse(readFileSync(join(code.root, 'fixtures/stories', slug, 'story.json'), 'utf8')));
}

/** JSON with every object's keys sorted: two values that are equal read the same whatever order their keys were set
 *  in (a refactor may build a state's fields in another order without changing it). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const o = v as Record<string, unknown>;
    return Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));
  });
}

export type SimCase = { story: string; bot: BotName; language: PlayLanguage };

export type SimRecords = {
  /** Lean mode: the report, then one line per run (its summary and final state). */
  runs: string[];
  /** Full mode with transcripts: one line per transcript line of every run. */
  transcripts: string[];
};

/** The records of one case: `runs` lean runs and `transcriptRuns` full runs, both from `seed`. */
export function simRecords(code: SimCode, story: Story, c: SimCase, opts: { runs: number; transcriptRuns: number; seed: number }): SimRecords {
  const runs: string[] = [];
  const lean = code.simulation(story, { runs: opts.runs, seed: opts.seed, bot: c.bot, language: c.language });
  for (let i = 0; i < opts.runs; i++) {
    const summary = lean.playRun();
    runs.push(canonicalJson({ summary, state: lean.state }));
  }
  runs.unshift(canonicalJson(lean.report()));
  const transcripts: string[] = [];
  const full = code.simulation(story, {
    runs: opts.transcriptRuns, seed: opts.seed, bot: c.bot, language: c.language, transcripts: true,
    onRun: (_i, _s, log) => {
      for (const line of log ?? []) transcripts.push(canonicalJson(line));
    },
  });
  for (let i = 0; i < opts.transcriptRuns; i++) full.playRun();
  return { runs, transcripts };
}

export function sha256(lines: readonly string[]): string {
  const h = createHash('sha256');
  for (const l of lines) h.update(l).update('\n');
  return h.digest('hex');
}

/** Where two series of lines first differ: the line's index and both lines cut around the first differing character
 *  (null when they are the same). */
export function firstDifference(a: readonly string[], b: readonly string[], width = 120): { line: number; a: string | null; b: string | null } | null {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (x === undefined || y === undefined) return { line: i, a: x ?? null, b: y ?? null };
    let k = 0;
    while (k < x.length && x[k] === y[k]) k++;
    const from = Math.max(0, k - width / 2);
    return { line: i, a: x.slice(from, from + width), b: y.slice(from, from + width) };
  }
  return null;
}
