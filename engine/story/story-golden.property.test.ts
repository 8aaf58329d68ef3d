// Generated stories (arbitraries.ts, a fixed seed) validate, simulate and pass the story JSON Schema exactly as
// recorded in story-golden.json: what validation reports, what a seeded simulation of each bot gives, and whether the
// committed schema accepts the file. A change to how moment types are defined or read must leave all three alone.
// LOOPTALE_WRITE_GOLDEN=1 rewrites the file (only when the behaviour is meant to change).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { simulate } from '../sim/simulate.js';
import { storyArb } from './arbitraries.js';
import { validateStory } from './validate.js';

const GOLDEN = join(import.meta.dirname, 'story-golden.json');
const SCHEMA = join(import.meta.dirname, 'story.schema.json');
const STORIES = 60;

type Record_ = { validation: unknown; schema_accepts: boolean; simulation: unknown };

function record(raw: unknown, accepts: (v: unknown) => boolean, k: number): Record_ {
  const v = validateStory(raw);
  const validation = { ok: v.ok, parsed: v.story !== undefined, problems: v.problems.map((p) => ({ ...p })) };
  let simulation: unknown = null;
  if (v.story) {
    const story = v.story;
    simulation = Object.fromEntries((['optimal', 'greedy', 'random'] as const).map((bot) => {
      try {
        const { coverage: c, ...report } = simulate(story, { runs: 4, seed: k + 1, bot, maxTurnsPerRun: 60 });
        // Coverage as counts (its names and ids repeat the story).
        return [bot, { ...report, played: c.moments.map((m) => [m.played, m.skipped]), taken: c.transitions.map((t) => t.taken), never: [c.never_reached.length, c.never_taken.length] }];
      } catch (e) {
        return [bot, { threw: (e as Error).message }];
      }
    }));
  }
  return { validation, schema_accepts: accepts(raw), simulation };
}

describe('generated stories', () => {
  it('validate, simulate and pass the JSON Schema as recorded', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: false });
    const check = ajv.compile(JSON.parse(readFileSync(SCHEMA, 'utf8')) as object);
    const accepts = (v: unknown): boolean => check(v);
    const stories = fc.sample(storyArb, { seed: 30, numRuns: STORIES });
    const got = JSON.parse(JSON.stringify(stories.map((s, k) => record(s, accepts, k)))) as Record_[];
    if (process.env.LOOPTALE_WRITE_GOLDEN === '1') writeFileSync(GOLDEN, `${JSON.stringify(got, null, 1)}\n`);
    const want = JSON.parse(readFileSync(GOLDEN, 'utf8')) as Record_[];
    expect(got.length).toBe(want.length);
    for (const [k, g] of got.entries()) expect(g, `generated story ${k}: ${JSON.stringify(stories[k]).slice(0, 200)}`).toEqual(want[k]);
  }, 120_000);
});
