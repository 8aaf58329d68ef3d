// Authoring: a draft change's round trip (apply + check what changed + store the revision, one transaction:
// server/store/drafts.ts DraftRepo.change) on a generated 2,000-moment story, on PGlite and on a throwaway
// PostgreSQL, p50/p99 against the goal p99 < 50 ms. The default 300 changes cross one snapshot (every 250
// revisions, written after the answer): its write is inside the window measured. Beside it: the full validation
// alone (checkDraft) and the incremental check of one change (DraftChecker), a bare one-row UPDATE of the whole
// document on the same database (what each change cost when it rewrote the document), and the first open of the
// draft by another process (a cold DraftRepo: snapshot + the revisions after it + a full check).
// `npm run bench -- authoring`. Knobs: BENCH_AUTHOR_MOMENTS (2000), BENCH_AUTHOR_CHANGES (300),
// BENCH_AUTHOR_DB (pglite,postgres).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Change } from '../../engine/authoring/change.js';
import { applyChange } from '../../engine/authoring/apply.js';
import { checkDraft } from '../../engine/authoring/draft-check.js';
import { DraftChecker } from '../../engine/authoring/incremental-check.js';
import type { Db } from '../../server/db/db.js';
import { migrate } from '../../server/db/migrate.js';
import { openPglite } from '../../server/db/pglite.js';
import { openPostgres } from '../../server/db/postgres.js';
import { DraftRepo } from '../../server/store/drafts.js';
import { StoryRepo } from '../../server/store/stories.js';
import { startThrowawayPostgres } from '../pg-throwaway.js';
import { summarize } from './lib/stats.js';

type Json = Record<string, unknown>;
const GOAL_P99_MS = 50;

/** lantern-keeper grown to `n` moments: its first Monologue copied into a chain before the rest of the story. */
export function bigStory(n: number): Json {
  const doc = JSON.parse(readFileSync(join(import.meta.dirname, '../../fixtures/stories/lantern-keeper/story.json'), 'utf8')) as Json;
  const moments = doc.moments as Json[];
  const first = moments.find((m) => m.id === doc.first_moment_id) as Json;
  const extra: Json[] = [];
  let next = doc.first_moment_id as string;
  for (let i = moments.length; i < n; i++) {
    const id = randomUUID();
    extra.unshift({ ...first, id, name: { en: `Fog, part ${n - i}` }, transitions: [{ ...(first.transitions as Json[])[0], next_moment_id: next }] });
    next = id;
  }
  return { ...doc, first_moment_id: next, moments: [...extra, ...moments] };
}

async function measure(db: Db, doc: Json, changes: number): Promise<Record<string, unknown>> {
  await migrate(db);
  const drafts = new DraftRepo(db, new StoryRepo(db));
  const author = randomUUID();
  const created = await drafts.create(doc, author);
  if (!created.ok) throw new Error(`bench: the generated story is refused: ${JSON.stringify(created).slice(0, 300)}`);
  const ids = (doc.moments as Json[]).map((m) => String(m.id));
  const round: number[] = [];
  const floor: number[] = [];
  let revision = 0;
  for (let i = 0; i < changes; i++) {
    const change = changeAt(ids, i);
    const t0 = performance.now();
    const w = await drafts.change(doc.id as string, revision, [change], author);
    round.push(performance.now() - t0);
    if (!w.ok) throw new Error(`bench: change ${i} refused: ${w.kind}`);
    revision = w.draft.revision;
  }
  await drafts.flush();
  // The floor after the changes, not between them: 2.3 MB writes in between would slow the changes measured.
  const text = JSON.stringify(doc);
  await db.query('CREATE TABLE IF NOT EXISTS bench_floor (id int PRIMARY KEY, doc json)');
  await db.query('INSERT INTO bench_floor VALUES (1, $1::text::json) ON CONFLICT (id) DO NOTHING', [text]);
  for (let i = 0; i < 30; i++) {
    const t1 = performance.now();
    await db.query('UPDATE bench_floor SET doc = $1::text::json WHERE id = 1', [text]);
    floor.push(performance.now() - t1);
  }
  const snapshots = await db.query<{ revision: number }>('SELECT revision FROM looptale_private.story_draft_snapshots WHERE story_id = $1', [doc.id]);
  const t2 = performance.now();
  const cold = await new DraftRepo(db, new StoryRepo(db)).open(doc.id as string, author);
  const coldOpen = performance.now() - t2;
  if (cold?.revision !== revision) throw new Error(`bench: a cold process opens revision ${String(cold?.revision)}, not ${revision}`);
  const r = summarize(round);
  return {
    changes: round.length, round_trip_ms: r, bare_update_ms: summarize(floor), cold_open_ms: Math.round(coldOpen),
    snapshot_revisions: snapshots.rows.map((x) => Number(x.revision)), goal_p99_ms: GOAL_P99_MS, meets_goal: (r.p99 ?? Infinity) < GOAL_P99_MS,
  };
}

/** The bench's i-th change: a new goal for a moment spread over the story. */
const changeAt = (ids: readonly string[], i: number): Change => ({ op: 'set', path: ['moments', ids[(i * 7919) % ids.length] ?? '', 'goal'], value: { en: `Goal ${i}` } });

/** The incremental check of one change after another, as a draft's writer runs it. */
function incremental(doc: Json, changes: number): ReturnType<typeof summarize> {
  const checker = new DraftChecker();
  checker.check(doc);
  const ids = (doc.moments as Json[]).map((m) => String(m.id));
  const times: number[] = [];
  let cur = doc;
  for (let i = 0; i < changes; i++) {
    const a = applyChange(cur, changeAt(ids, i));
    if (!a.ok) throw new Error('bench: a change does not apply');
    cur = a.doc;
    const t0 = performance.now();
    checker.check(cur);
    times.push(performance.now() - t0);
  }
  return summarize(times);
}

export async function run(): Promise<Record<string, unknown>> {
  const n = Number(process.env.BENCH_AUTHOR_MOMENTS ?? 2000);
  const changes = Number(process.env.BENCH_AUTHOR_CHANGES ?? 300);
  const dbs = (process.env.BENCH_AUTHOR_DB ?? 'pglite,postgres').split(',');
  const doc = bigStory(n);
  const bytes = Buffer.byteLength(JSON.stringify(doc));
  const validate: number[] = [];
  for (let i = 0; i < 30; i++) {
    const t0 = performance.now();
    const c = checkDraft(doc);
    validate.push(performance.now() - t0);
    if (c.refused.length > 0) throw new Error(`bench: the generated story does not load: ${c.refused[0]?.message ?? ''}`);
  }
  const load = (): number[] => loadavg().map((x) => Math.round(x * 100) / 100);
  const out: Record<string, unknown> = {
    load_average_start: load(),
    moments: (doc.moments as Json[]).length, document_bytes: bytes, validate_ms: summarize(validate), incremental_check_ms: incremental(doc, 100),
  };
  if (dbs.includes('pglite')) {
    const dir = mkdtempSync(join(tmpdir(), 'looptale-author-bench-'));
    const db = await openPglite(dir, { vacuum: false });
    try {
      out.pglite = await measure(db, doc, changes);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (dbs.includes('postgres')) {
    const pg = await startThrowawayPostgres();
    const db = await openPostgres(pg.url, 4);
    try {
      out.postgres = await measure(db, doc, changes);
    } finally {
      await db.close();
      await pg.stop();
    }
  }
  out.load_average_end = load();
  return out;
}
