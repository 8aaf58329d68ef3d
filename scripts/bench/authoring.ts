// Authoring: a draft change's round trip (apply + validate the whole draft + store the revision and the draft, one
// transaction: server/store/drafts.ts DraftRepo.change) on a generated 2,000-moment story, on PGlite and on a
// throwaway PostgreSQL, p50/p99 against the goal p99 < 50 ms; and, beside it, the validation alone (checkDraft) and
// a bare one-row UPDATE of the same document size on the same database (the store's floor).
// `npm run bench -- authoring`. Knobs: BENCH_AUTHOR_MOMENTS (2000), BENCH_AUTHOR_CHANGES (200),
// BENCH_AUTHOR_DB (pglite,postgres).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Change } from '../../engine/authoring/change.js';
import { checkDraft } from '../../engine/authoring/draft-check.js';
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
  const text = JSON.stringify(doc);
  await db.query('CREATE TEMP TABLE IF NOT EXISTS bench_floor (id int PRIMARY KEY, doc json)');
  await db.query('INSERT INTO bench_floor VALUES (1, $1::text::json) ON CONFLICT (id) DO NOTHING', [text]);
  for (let i = 0; i < changes; i++) {
    const change: Change = { op: 'set', path: ['moments', ids[(i * 7919) % ids.length] ?? '', 'goal'], value: { en: `Goal ${i}` } };
    const t0 = performance.now();
    const w = await drafts.change(doc.id as string, revision, [change], author);
    round.push(performance.now() - t0);
    if (!w.ok) throw new Error(`bench: change ${i} refused: ${w.kind}`);
    revision = w.draft.revision;
    const t1 = performance.now();
    await db.query('UPDATE bench_floor SET doc = $1::text::json WHERE id = 1', [text]);
    floor.push(performance.now() - t1);
  }
  const r = summarize(round);
  return { changes: round.length, round_trip_ms: r, bare_update_ms: summarize(floor), goal_p99_ms: GOAL_P99_MS, meets_goal: (r.p99 ?? Infinity) < GOAL_P99_MS };
}

export async function run(): Promise<Record<string, unknown>> {
  const n = Number(process.env.BENCH_AUTHOR_MOMENTS ?? 2000);
  const changes = Number(process.env.BENCH_AUTHOR_CHANGES ?? 200);
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
  const out: Record<string, unknown> = { moments: (doc.moments as Json[]).length, document_bytes: bytes, validate_ms: summarize(validate) };
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
  return out;
}
