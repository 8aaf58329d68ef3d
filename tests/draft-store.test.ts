// Drafts stored as their changes (server/store/drafts.ts, draft-documents.ts): two server processes, here two
// DraftRepo instances with their own memory on one real PostgreSQL, write one draft alternately and in parallel, and
// each sees the other's changes; what either answers equals the changes applied in order and checkDraft's report; a
// third, cold, process loads the same document from the snapshot and the revisions after it. And a database whose
// drafts were stored whole (migration 0013) keeps them through migration 0015.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyChanges, type Json } from '../engine/authoring/apply.js';
import type { Change } from '../engine/authoring/change.js';
import { checkDraft } from '../engine/authoring/draft-check.js';
import type { Db } from '../server/db/db.js';
import { migrate, MIGRATIONS_DIR } from '../server/db/migrate.js';
import { openPglite } from '../server/db/pglite.js';
import { openPostgres } from '../server/db/postgres.js';
import { type DraftWrite, DraftRepo } from '../server/store/drafts.js';
import { StoryRepo } from '../server/store/stories.js';
import { postgresDatabase } from './helpers/databases.js';

const lantern = JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/stories/lantern-keeper/story.json'), 'utf8')) as Json;
const moments = (lantern.moments as Json[]).map((m) => String(m.id));
const goal = (i: number, text: string): Change => ({ op: 'set', path: ['moments', moments[i % moments.length] ?? '', 'goal'], value: { fr: `${text} (fr)`, en: text } });

function written(w: DraftWrite): Extract<DraftWrite, { ok: true }> {
  if (!w.ok) throw new Error(`refused: ${JSON.stringify(w).slice(0, 300)}`);
  return w;
}

describe('drafts stored as changes, two processes on one PostgreSQL', () => {
  let db1: Db;
  let db2: Db;
  let db3: Db;
  let a: DraftRepo;
  let b: DraftRepo;
  const author = randomUUID();

  beforeAll(async () => {
    const url = await postgresDatabase('drafts');
    db1 = await openPostgres(url, 2);
    await migrate(db1);
    db2 = await openPostgres(url, 2);
    db3 = await openPostgres(url, 1);
    // A snapshot every 3 revisions, so that the writes below cross several of them.
    a = new DraftRepo(db1, new StoryRepo(db1), { snapshotEvery: 3 });
    b = new DraftRepo(db2, new StoryRepo(db2), { snapshotEvery: 3 });
  });
  afterAll(async () => {
    await a.flush();
    await b.flush();
    await Promise.all([db1.close(), db2.close(), db3.close()]);
  });

  it('each process sees the other\'s changes, writing alternately; a cold process loads the same draft', async () => {
    const story: Json = { ...lantern, id: randomUUID() };
    const id = String(story.id);
    written(await a.create(story, author));
    let expected: Json = story;
    let revision = 0;
    for (let i = 0; i < 12; i++) {
      const by = i % 2 === 0 ? b : a;
      const change = goal(i, `Goal ${i}`);
      const w = written(await by.change(id, revision, [change], author));
      const applied = applyChanges(expected, [change]);
      if (!applied.ok) throw new Error('the change does not apply');
      expected = applied.doc;
      revision = w.draft.revision;
      expect(revision).toBe(i + 1);
      expect(JSON.stringify(w.draft.document)).toBe(JSON.stringify(expected));
      expect(w.draft.report).toEqual(checkDraft(expected).report);
      if (i % 4 === 3) {
        await a.flush();
        await b.flush();
      }
    }
    const seen = await Promise.all([a.open(id, author), b.open(id, author)]);
    for (const d of seen) {
      expect(d?.revision).toBe(12);
      expect(JSON.stringify(d?.document)).toBe(JSON.stringify(expected));
    }
    const snaps = await db3.query<{ revision: number }>('SELECT revision FROM looptale_private.story_draft_snapshots WHERE story_id = $1', [id]);
    expect(snaps.rows.map((r) => Number(r.revision))).toEqual([12]);
    // A process that never held the draft: the snapshot plus the revisions after it.
    const cold = new DraftRepo(db3, new StoryRepo(db3), { snapshotEvery: 1000 });
    const c = written(await cold.change(id, 12, [goal(0, 'From a cold process')], author));
    const last = applyChanges(expected, [goal(0, 'From a cold process')]);
    if (!last.ok) throw new Error('the change does not apply');
    expect(JSON.stringify(c.draft.document)).toBe(JSON.stringify(last.doc));
    expect(c.draft.report).toEqual(checkDraft(last.doc).report);
    expect(JSON.stringify((await a.open(id, author))?.document)).toBe(JSON.stringify(last.doc));
  });

  it('merges the two processes\' writes made at once on different fields, and refuses the same field as a conflict', async () => {
    const story: Json = { ...lantern, id: randomUUID() };
    const id = String(story.id);
    written(await a.create(story, author));
    await a.open(id, author);
    await b.open(id, author);
    const writes = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? a : b).change(id, 0, [goal(i, `Parallel ${i}`)], author)));
    const ok = writes.filter((w) => w.ok);
    expect(ok).toHaveLength(10);
    const both = await Promise.all([a.open(id, author), b.open(id, author)]);
    for (const d of both) {
      expect(d?.revision).toBe(10);
      for (let i = 0; i < 10; i++) {
        const m = (d?.document.moments as Json[]).find((x) => x.id === moments[i % moments.length]);
        expect(m?.goal).toBeDefined();
      }
    }
    expect(JSON.stringify(both[0]?.document)).toBe(JSON.stringify(both[1]?.document));
    written(await a.change(id, 10, [goal(0, 'Mine')], author));
    const clash = await b.change(id, 10, [goal(0, 'Theirs')], author);
    expect(clash.ok).toBe(false);
    expect(!clash.ok && clash.kind).toBe('conflict');
    expect((await b.open(id, author))?.revision).toBe(11);
  });

  it('keeps an imported file\'s own key order in the other process (replace writes a snapshot)', async () => {
    const story: Json = { ...lantern, id: randomUUID() };
    const id = String(story.id);
    written(await a.create(story, author));
    await a.open(id, author);
    const file = { ...story, name: 'Reordered', moments: (story.moments as Json[]).map((m) => Object.fromEntries(Object.entries(m).reverse())) };
    const r = written(await b.replace(id, 0, file, author));
    expect(r.draft.revision).toBe(1);
    const seen = written(await a.change(id, 1, [goal(1, 'After the import')], author));
    const expected = applyChanges(file, [goal(1, 'After the import')]);
    if (!expected.ok) throw new Error('the change does not apply');
    expect(JSON.stringify(seen.draft.document)).toBe(JSON.stringify(expected.doc));
    const names = await db3.query<{ name: string }>('SELECT name FROM looptale_private.story_drafts WHERE story_id = $1', [id]);
    expect(names.rows[0]?.name).toBe('Reordered');
  });
});

describe('migration 0015', () => {
  let dir: string;
  let db: Db;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'looptale-drafts-migration-'));
    db = await openPglite(join(dir, 'data'), { vacuum: false });
  });
  afterAll(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('moves drafts stored whole into snapshots, and they open and change as before', async () => {
    const before = join(dir, 'migrations');
    cpSync(MIGRATIONS_DIR, before, { recursive: true, filter: (src) => !/\/(001[5-9]|00[2-9]\d)_[^/]*\.sql$/.test(src) });
    expect(readdirSync(before).some((f) => f.startsWith('0015'))).toBe(false);
    await migrate(db, before);
    const story: Json = { ...lantern, id: randomUUID() };
    const id = String(story.id);
    const earlier = applyChanges(story, [goal(2, 'Written before the migration')]);
    if (!earlier.ok) throw new Error('the change does not apply');
    await db.query(
      `INSERT INTO looptale_private.story_drafts (story_id, revision, base_version, document, report) VALUES ($1, 1, NULL, $2::text::json, '[]')`,
      [id, JSON.stringify(earlier.doc)],
    );
    await db.query(
      `INSERT INTO looptale_private.story_revisions (story_id, revision, changes, inverse, summary) VALUES ($1, 1, $2::text::jsonb, '[]', 'x')`,
      [id, JSON.stringify([goal(2, 'Written before the migration')])],
    );
    await migrate(db);
    const drafts = new DraftRepo(db, new StoryRepo(db));
    const d = await drafts.open(id, null);
    expect(d?.revision).toBe(1);
    expect(JSON.stringify(d?.document)).toBe(JSON.stringify(earlier.doc));
    expect(d?.report).toEqual(checkDraft(earlier.doc).report);
    const w = written(await drafts.change(id, 1, [goal(3, 'After')], randomUUID()));
    expect(w.draft.revision).toBe(2);
    const list = await drafts.workshop(randomUUID(), true);
    expect(list.find((x) => x.id === id)?.name).toBe(String(lantern.name));
  });
});
