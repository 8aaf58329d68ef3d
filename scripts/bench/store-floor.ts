// The embedded store's own floor: what one turn and one run creation cost PGlite's single worker when nothing else is
// waiting for it, the service time every queued call adds to the ones behind it. The real game service and turn
// pipeline (scripted brain, no voice) on a PGlite data directory, calls made one at a time: players of The Lantern
// Keeper take turns round-robin along its winning test plan and start a new run when theirs ends. Per operation:
// wall time (p50/p99) and the database worker thread's CPU (from /proc, which a loaded machine inflates less than
// wall time), and per statement kind the worker's time. `npm run bench -- store-floor`.
// Knobs: BENCH_FLOOR_PLAYERS (100), BENCH_FLOOR_TURNS (3000), BENCH_FLOOR_SQL (statements run after the migrations, ';'
// separated, to try a setting or a storage change).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { UserInput } from '../../engine/protocol/user-input.js';
import { Story } from '../../engine/story/format.js';
import type { Db } from '../../server/db/db.js';
import { migrate } from '../../server/db/migrate.js';
import { openPglite } from '../../server/db/pglite.js';
import { DEFAULT_VACUUM_POLICY, PgliteVacuum } from '../../server/db/pglite-vacuum.js';
import { ScriptedBrain } from '../../server/game/brain.js';
import { GameService } from '../../server/game/service.js';
import { TurnPipeline } from '../../server/game/turn-pipeline.js';
import { createLogger } from '../../server/log.js';
import { GameRepo } from '../../server/store/game.js';
import { StoryRepo } from '../../server/store/stories.js';
import { NoTranscriber } from '../../server/voice/transcriber.js';
import { planActions, type PlanAction } from './lib/players.js';
import { round, summarize } from './lib/stats.js';

const ROOT = join(import.meta.dirname, '../..');
const STORY_DIR = join(ROOT, 'fixtures/stories/lantern-keeper');

/** CPU ms of each thread of this process but the main one (Linux /proc). */
function otherThreadsCpu(): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    if (Number(tid) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(tid), (Number(f[11]) + Number(f[12])) * 10);
    } catch {
      // the thread ended
    }
  }
  return out;
}
const busiestDelta = (a: Map<number, number>, b: Map<number, number>): number => Math.max(0, ...[...b].map(([tid, ms]) => ms - (a.get(tid) ?? 0)));

/** Times every call by statement kind; calls are made one at a time here, so a call's time is the worker's. */
function timed(db: Db): { db: Db; by: Map<string, number[]> } {
  const by = new Map<string, number[]>();
  const kind = (sql: string): string => sql.replace(/\s+/g, ' ').trim().slice(0, 60);
  const note = (k: string, ms: number): void => {
    let v = by.get(k);
    if (!v) by.set(k, (v = []));
    v.push(ms);
  };
  const wrapped: Db = {
    kind: db.kind,
    query: async (sql, params, opts) => {
      const t0 = performance.now();
      try {
        return await db.query(sql, params, opts);
      } finally {
        note(kind(sql), performance.now() - t0);
      }
    },
    tx: async (fn) => {
      const t0 = performance.now();
      try {
        return await db.tx(fn);
      } finally {
        note('(transaction)', performance.now() - t0);
      }
    },
    close: () => db.close(),
  };
  return { db: wrapped, by };
}

export async function run(): Promise<Record<string, unknown>> {
  const players = Number(process.env.BENCH_FLOOR_PLAYERS ?? 100);
  const turns = Number(process.env.BENCH_FLOOR_TURNS ?? 3000);
  const extraSql = (process.env.BENCH_FLOOR_SQL ?? '').split(';').map((s) => s.trim()).filter(Boolean);
  const raw = JSON.parse(readFileSync(join(STORY_DIR, 'story.json'), 'utf8')) as unknown;
  const story = Story.parse(raw);
  const actions = planActions(join(STORY_DIR, 'win.en.testplan'));
  const dir = mkdtempSync(join(tmpdir(), 'looptale-floor-'));
  const raw0 = await openPglite(dir, { vacuum: false });
  try {
    await migrate(raw0);
    await new StoryRepo(raw0).importStory(story, raw);
    for (const sql of extraSql) await raw0.query(sql);
    const { db, by } = timed(raw0);
    const log = createLogger('silent');
    const store = new GameRepo(db);
    const game = new GameService({ store, stories: new StoryRepo(db), log });
    const pipeline = new TurnPipeline({ game, store, brain: new ScriptedBrain(), transcriber: new NoTranscriber(), synthesizer: null, log });
    type P = { userId: string; runId: string; cursor: number; needStart: boolean; over: boolean };
    const ps: P[] = Array.from({ length: players }, () => ({ userId: randomUUID(), runId: '', cursor: 0, needStart: true, over: true }));
    const turnMs: number[] = [];
    const createMs: number[] = [];
    let turnWorkerMs = 0;
    let createWorkerMs = 0;
    const next = (p: P): Omit<UserInput, 'input_id'> => {
      const a: PlanAction = actions[p.cursor % actions.length] ?? { start: true };
      if (p.needStart) {
        if (a.start) p.cursor++;
        return { player_story_id: p.runId, is_starting_dialogue: true };
      }
      p.cursor++;
      return a.start ? { player_story_id: p.runId, is_starting_dialogue: true } : { player_story_id: p.runId, is_starting_dialogue: false, transcription: a.text };
    };
    // The product's VACUUM (pglite-vacuum.ts) at its default pace, made here through the timed driver to be seen.
    const vacuum = new PgliteVacuum(DEFAULT_VACUUM_POLICY);
    let calls = 0;
    const t0 = performance.now();
    for (let i = 0; i < turns; i++) {
      const now = [...by.values()].reduce((n, v) => n + v.length, 0);
      for (; calls < now; calls++) vacuum.count();
      if (vacuum.due(false)) await vacuum.run(db);
      const p = ps[i % players] as P;
      if (p.over) {
        const c0 = otherThreadsCpu();
        const s = performance.now();
        const r = await game.createRun(p.userId, story.id, { language: 'english' });
        createMs.push(performance.now() - s);
        createWorkerMs += busiestDelta(c0, otherThreadsCpu());
        Object.assign(p, { runId: r.id, cursor: 0, needStart: true, over: false });
      }
      const input = { input_id: randomUUID(), ...next(p) } as UserInput;
      let last: { complete_the_moment: boolean; loop_status: string } | undefined;
      const c0 = otherThreadsCpu();
      const s = performance.now();
      const out = await pipeline.run({ userId: p.userId, input, audio: null, receivedAt: s, decodeMs: 0 }, (f) => {
        if (f.type === 'GAME_OUTPUT') last = f.output;
        if (f.type === 'ERROR_MESSAGE') throw new Error(`turn refused: ${f.message}`);
        return true;
      });
      turnMs.push(performance.now() - s);
      turnWorkerMs += busiestDelta(c0, otherThreadsCpu());
      if (out.kind !== 'played' || !last) throw new Error(`turn ${i}: ${out.kind}`);
      p.needStart = last.complete_the_moment;
      p.over = last.loop_status !== 'loopStatusOnGoing';
    }
    const wall = performance.now() - t0;
    const sizes = await raw0.query<{ state: string; outputs: string; line: string }>(`SELECT
      (SELECT avg(length(state::text))::int FROM looptale_private.player_story_states)::text AS state,
      (SELECT avg(length(outputs::text))::int FROM looptale_private.processed_inputs)::text AS outputs,
      (SELECT avg(length(line::text))::int FROM looptale_private.player_story_transcripts)::text AS line`);
    return {
      players, turns, runs_created: createMs.length, extra_sql: extraSql, wall_s: round(wall / 1000, 1), load_avg_1m: round(os.loadavg()[0] ?? 0, 2),
      turn_ms: summarize(turnMs), run_create_ms: summarize(createMs),
      // /proc counts in 10 ms ticks: per-operation figures are averages over all the operations.
      worker_cpu_ms_per_turn: round(turnWorkerMs / turnMs.length, 3),
      worker_cpu_ms_per_run_creation: createMs.length ? round(createWorkerMs / createMs.length, 3) : null,
      avg_json_chars: sizes.rows[0] ?? null,
      by_statement: Object.fromEntries([...by].sort((a, b) => b[1].reduce((x, y) => x + y, 0) - a[1].reduce((x, y) => x + y, 0))
        .map(([k, v]) => [k, { calls: v.length, total_ms: round(v.reduce((x, y) => x + y, 0), 1), ms: summarize(v) }])),
    };
  } finally {
    await raw0.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
