// Story drafts: the one draft of each story, changed a few validated changes at a time (engine/authoring), every
// change kept as a revision with its inverse (history, restore), merged with changes made since the writer's base
// revision or refused as a conflict, and published as the story's next version (StoryRepo.publishIn). Each write is
// one transaction holding the draft's row lock, so two writers are serialised and revisions never skip or repeat.
// A change writes its revision row and the draft's counter, never the whole document: the document is a snapshot
// plus the revisions after it, held parsed in memory and checked from what changed (draft-documents.ts).
import { applyChanges, type Json } from '../../engine/authoring/apply.js';
import { type Change, describeChange } from '../../engine/authoring/change.js';
import { diffDrafts } from '../../engine/authoring/diff.js';
import { type Conflict, conflictsOf } from '../../engine/authoring/merge.js';
import { Story } from '../../engine/story/format.js';
import type { Problem } from '../../engine/story/validate.js';
import { Rollback, type Db, type Queryable } from '../db/db.js';
import { DraftDocuments, type DraftDocumentsOptions, type DraftState } from './draft-documents.js';
import { iso, isUuid, json } from './rows.js';
import type { StoryRepo } from './stories.js';

export type Draft = {
  story_id: string;
  revision: number;
  /** The published version the draft was made from or last published as; null: never published. */
  base_version: number | null;
  document: Json;
  /** What `looptale story validate` says of the draft (errors block publishing). */
  report: Problem[];
  publishable: boolean;
  updated_at: string;
};

export type Revision = {
  revision: number;
  author_id: string | null;
  at: string;
  summary: string;
  changes: Change[];
  /** Field by field: the value before and after (a whole entity for an add or a remove). */
  diff: { path: string; before: unknown; after: unknown }[];
};

/** Why a write was refused; nothing was written. */
export type DraftRefusal =
  | { kind: 'not_found' }
  | { kind: 'stale'; revision: number }
  | { kind: 'conflict'; revision: number; conflicts: Conflict[] }
  | { kind: 'invalid'; problems: { path: string; code: string; message: string }[] }
  | { kind: 'exists' };

export type DraftWrite = { ok: true; draft: Draft; merged: boolean; version?: number } | ({ ok: false } & DraftRefusal);

class Refused extends Rollback {
  constructor(readonly refusal: DraftRefusal) {
    super(refusal.kind);
  }
}

const isRecord = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The draft's row: its counters, not its document. `snapshot`: the revision of its newest snapshot. */
type DraftRow = { revision: number; base_version: number | null; updated_at: string; snapshot: number };
/** A draft read under its row's lock: the row and the document at its revision. */
type Held = { row: DraftRow; state: DraftState };
type Written = { draft: Draft; merged: boolean; version?: number; state?: DraftState; snapshot?: number };

function toDraft(row: DraftRow, s: DraftState): Draft {
  const report = s.check.report;
  return {
    story_id: s.storyId, revision: s.revision, base_version: row.base_version, document: s.document, report,
    publishable: !report.some((p) => p.severity === 'error'), updated_at: row.updated_at,
  };
}

const nameOf = (doc: Json): string => (typeof doc.name === 'string' ? doc.name : '');

const summaryOf = (changes: readonly Change[]): string =>
  changes.length === 1 ? describeChange(changes[0] as Change) : `${changes.length} changes: ${changes.slice(0, 3).map(describeChange).join(', ')}${changes.length > 3 ? ', ...' : ''}`;

const ROW_SQL = `SELECT d.revision, d.base_version, d.updated_at,
  (SELECT max(s.revision) FROM looptale_private.story_draft_snapshots s WHERE s.story_id = d.story_id) AS snapshot
  FROM looptale_private.story_drafts d WHERE d.story_id = $1`;

export class DraftRepo {
  readonly #db: Db;
  readonly #stories: StoryRepo;
  readonly #docs: DraftDocuments;

  constructor(db: Db, stories: StoryRepo, opts: DraftDocumentsOptions = {}) {
    this.#db = db;
    this.#stories = stories;
    this.#docs = new DraftDocuments(db, opts);
  }

  /** Waits for the snapshots being written after answers (before closing the database). */
  async flush(): Promise<void> {
    await this.#docs.flush();
  }

  /** The story's draft, made from its newest version on first use; null when the story has neither. */
  async open(storyId: string, by: string | null): Promise<Draft | null> {
    if (!isUuid(storyId)) return null;
    const have = await this.#read(storyId);
    if (have) return have;
    const latest = await this.#db.query<{ version: number; document: unknown }>(
      'SELECT version, document FROM looptale_private.story_versions WHERE story_id = $1 ORDER BY version DESC LIMIT 1', [storyId],
    );
    const v = latest.rows[0];
    if (!v || !isRecord(v.document)) return null;
    const doc = v.document;
    const state = this.#docs.fresh(storyId, 0, doc);
    await this.#db.tx(async (q) => {
      const made = await q.query(
        `INSERT INTO looptale_private.story_drafts (story_id, revision, base_version, name, created_by)
         VALUES ($1, 0, $2, $3, $4) ON CONFLICT (story_id) DO NOTHING RETURNING 1`,
        [storyId, v.version, nameOf(doc), by],
      );
      if (made.rows.length > 0) await this.#docs.snapshotIn(q, state);
    });
    return this.#read(storyId);
  }

  /** The draft as it is, read under a share lock on its row (no revision is added meanwhile). */
  async #read(storyId: string): Promise<Draft | null> {
    return this.#db.tx(async (q) => {
      const row = await this.#row(q, storyId, 'FOR SHARE');
      return row ? toDraft(row, await this.#docs.at(q, storyId, row.revision, row.snapshot)) : null;
    });
  }

  /** Makes the story's draft from its newest version when it has none yet (a cheap look-up when it has one). */
  async ensure(storyId: string, by: string | null): Promise<void> {
    if (!isUuid(storyId)) return;
    const have = await this.#db.query('SELECT 1 FROM looptale_private.story_drafts WHERE story_id = $1', [storyId]);
    if (have.rows.length === 0) await this.open(storyId, by);
  }

  /** A new story, as a draft only (no catalogue entry until it is published); `by` becomes its first author. */
  async create(document: Json, by: string): Promise<DraftWrite> {
    const id = String(document.id);
    const state = this.#docs.fresh(id, 0, document);
    const check = state.check;
    if (check.refused.length > 0) return { ok: false, kind: 'invalid', problems: check.refused };
    return this.#write(async (q) => {
      const taken = await q.query(
        'SELECT 1 FROM looptale_private.story_drafts WHERE story_id = $1 UNION ALL SELECT 1 FROM blueprint_stories WHERE id = $1', [id],
      );
      if (taken.rows.length > 0) throw new Refused({ kind: 'exists' });
      const made = await q.query<{ updated_at: Date }>(
        `INSERT INTO looptale_private.story_drafts (story_id, revision, base_version, name, created_by)
         VALUES ($1, 0, NULL, $2, $3) RETURNING updated_at`,
        [id, nameOf(document), by],
      );
      await this.#docs.snapshotIn(q, state);
      await q.query('INSERT INTO looptale_private.story_authors (blueprint_story_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [id, by]);
      const row: DraftRow = { revision: 0, base_version: null, updated_at: String(iso(made.rows[0]?.updated_at ?? new Date())), snapshot: 0 };
      return { draft: toDraft(row, state), merged: false, state, snapshot: 0 };
    });
  }

  /**
   * Applies changes made against `baseRevision`: merged with the revisions since when they touch other things,
   * refused with the conflicts when they touch the same; refused with the validator's problems when they would make
   * the draft unloadable. One new revision.
   */
  async change(storyId: string, baseRevision: number, changes: readonly Change[], by: string, summary?: string): Promise<DraftWrite> {
    return this.#write(async (q) => {
      const now = await this.#locked(q, storyId);
      const revision = now.row.revision;
      if (baseRevision > revision) throw new Refused({ kind: 'stale', revision });
      let merged = false;
      if (baseRevision < revision) {
        const since = await this.#revisionsAfter(q, storyId, baseRevision);
        let baseDoc = now.state.document;
        for (const r of [...since].reverse()) {
          const back = applyChanges(baseDoc, r.inverse);
          if (back.ok) baseDoc = back.doc;
        }
        const conflicts = conflictsOf(changes, since.flatMap((r) => r.changes), baseDoc, now.state.document);
        if (conflicts.length > 0) throw new Refused({ kind: 'conflict', revision, conflicts });
        merged = true;
      }
      return { ...(await this.#applyAsRevision(q, now, changes, by, summary ?? summaryOf(changes))), merged };
    });
  }

  /** Replaces the whole draft with a story file (an import as a new draft): one revision, field by field. */
  async replace(storyId: string, baseRevision: number, document: Json, by: string): Promise<DraftWrite> {
    return this.#write(async (q) => {
      const now = await this.#locked(q, storyId);
      if (baseRevision !== now.row.revision) throw new Refused({ kind: 'stale', revision: now.row.revision });
      if (document.id !== storyId) throw new Refused({ kind: 'invalid', problems: [{ path: '$.id', code: 'change/other_story', message: `The file is story ${String(document.id)}, not ${storyId}.` }] });
      const changes = diffDrafts(now.state.document, document);
      if (changes.length === 0) return { draft: toDraft(now.row, now.state), merged: false };
      return { ...(await this.#applyAsRevision(q, now, changes, by, `Imported a story file (${changes.length} change${changes.length === 1 ? '' : 's'})`, document)), merged: false };
    });
  }

  /** Restores the draft as it was at `revision`, as a new revision (history only grows). */
  async restore(storyId: string, baseRevision: number, revision: number, by: string): Promise<DraftWrite> {
    return this.#write(async (q) => {
      const now = await this.#locked(q, storyId);
      const at = now.row.revision;
      if (baseRevision !== at) throw new Refused({ kind: 'stale', revision: at });
      if (revision < 0 || revision > at) {
        throw new Refused({ kind: 'invalid', problems: [{ path: '$.revision', code: 'change/no_revision', message: `No revision ${revision}: the draft is at revision ${at}.` }] });
      }
      const since = await this.#revisionsAfter(q, storyId, revision);
      const inverse = [...since].reverse().flatMap((r) => r.inverse);
      if (inverse.length === 0) return { draft: toDraft(now.row, now.state), merged: false };
      return { ...(await this.#applyAsRevision(q, now, inverse, by, `Restored revision ${revision}`)), merged: false };
    });
  }

  /** Publishes the draft as it is at `baseRevision` (it must be the newest and have no error) as the next version,
   *  with the author's note (a version published again unchanged keeps its first note). */
  async publish(storyId: string, baseRevision: number, by: string, note?: string): Promise<DraftWrite> {
    return this.#write(async (q) => {
      const now = await this.#locked(q, storyId);
      if (baseRevision !== now.row.revision) throw new Refused({ kind: 'stale', revision: now.row.revision });
      const errors = now.state.check.report.filter((p) => p.severity === 'error');
      if (errors.length > 0) throw new Refused({ kind: 'invalid', problems: errors });
      const story = Story.safeParse(now.state.document);
      if (!story.success) throw new Refused({ kind: 'invalid', problems: [{ path: '$', code: 'schema/invalid', message: 'The draft does not parse as a story.' }] });
      const version = await this.#stories.publishIn(q, story.data, now.state.document, by);
      if (note !== undefined) {
        await q.query('UPDATE looptale_private.story_versions SET note = $3 WHERE story_id = $1 AND version = $2 AND note IS NULL', [storyId, version, note]);
      }
      await q.query('UPDATE looptale_private.story_drafts SET base_version = $2 WHERE story_id = $1', [storyId, version]);
      return { draft: toDraft({ ...now.row, base_version: version }, now.state), merged: false, version };
    });
  }

  /** The stories a user may edit (every story for an admin), with their newest version and draft revision. */
  async workshop(userId: string, all: boolean): Promise<{ id: string; name: string; published_version: number | null; draft_revision: number | null; updated_at: string }[]> {
    const r = await this.#db.query<{ id: string; name: string; published_version: number | null; draft_revision: number | null; updated_at: Date }>(
      `WITH ids AS (
         SELECT id FROM blueprint_stories WHERE $2
         UNION SELECT story_id FROM looptale_private.story_drafts WHERE $2
         UNION SELECT blueprint_story_id FROM looptale_private.story_authors WHERE user_id::text = $1)
       SELECT ids.id::text,
              COALESCE(d.name, b.name, '') AS name,
              (SELECT max(version) FROM looptale_private.story_versions v WHERE v.story_id = ids.id) AS published_version,
              d.revision AS draft_revision,
              GREATEST(d.updated_at, b.updated_at) AS updated_at
         FROM ids LEFT JOIN looptale_private.story_drafts d ON d.story_id = ids.id LEFT JOIN blueprint_stories b ON b.id = ids.id
        WHERE (d.story_id IS NOT NULL OR b.id IS NOT NULL)
          AND NOT EXISTS (SELECT 1 FROM looptale_private.story_deletions x WHERE x.story_id = ids.id)
        ORDER BY 5 DESC, 2, 1`,
      [userId, all],
    );
    return r.rows.map((x) => ({
      id: x.id, name: x.name, published_version: x.published_version === null ? null : Number(x.published_version),
      draft_revision: x.draft_revision === null ? null : Number(x.draft_revision), updated_at: String(iso(x.updated_at)),
    }));
  }

  /** One published version's story file, as stored. */
  async versionDocument(storyId: string, version: number): Promise<Json | null> {
    if (!isUuid(storyId)) return null;
    const r = await this.#db.query<{ document: unknown }>('SELECT document FROM looptale_private.story_versions WHERE story_id = $1 AND version = $2', [storyId, version]);
    const d = r.rows[0]?.document;
    return isRecord(d) ? d : null;
  }

  /** The draft's revisions, newest first, with their diffs. */
  async history(storyId: string, limit: number, before?: number): Promise<Revision[]> {
    if (!isUuid(storyId)) return [];
    const r = await this.#db.query<{ revision: number; author_id: string | null; at: Date; summary: string; changes: Change[]; inverse: Change[] }>(
      `SELECT revision, author_id::text, at, summary, changes, inverse FROM looptale_private.story_revisions
        WHERE story_id = $1 AND ($2::int IS NULL OR revision < $2) ORDER BY revision DESC LIMIT $3`,
      [storyId, before ?? null, limit],
    );
    // Change i's inverse is inverse[n - 1 - i] (inverses are kept in the order that undoes them): the value it
    // writes back is the value before the change.
    return r.rows.map((x) => ({
      revision: Number(x.revision), author_id: x.author_id, at: String(iso(x.at)), summary: x.summary, changes: x.changes,
      diff: x.changes.map((c, i) => ({ path: describeChange(c).split(' ')[1] ?? '', before: sentValue(x.inverse[x.inverse.length - 1 - i]), after: sentValue(c) })),
    }));
  }

  /**
   * Applies the changes as the next revision: its row and the draft's counter are written, not the document (an
   * imported file, `exact`, is also written as a snapshot: replaying its changes would not give its key order).
   */
  async #applyAsRevision(q: Queryable, now: Held, changes: readonly Change[], by: string, summary: string, exact?: Json): Promise<Written> {
    const applied = applyChanges(now.state.document, changes);
    if (!applied.ok) throw new Refused({ kind: 'invalid', problems: applied.problems });
    const revision = now.row.revision + 1;
    const next = this.#docs.next(now.state, exact ?? applied.doc, revision);
    if (next.check.refused.length > 0) throw new Refused({ kind: 'invalid', problems: next.check.refused });
    await q.query(
      `INSERT INTO looptale_private.story_revisions (story_id, revision, author_id, changes, inverse, summary)
       VALUES ($1, $2, $3, $4::text::json, $5::text::json, $6)`,
      [next.storyId, revision, isUuid(by) ? by : null, json(changes), json(applied.inverse), summary.slice(0, 500)],
    );
    const r = await q.query<{ updated_at: Date }>(
      'UPDATE looptale_private.story_drafts SET revision = $2, name = $3, updated_at = now() WHERE story_id = $1 RETURNING updated_at',
      [next.storyId, revision, nameOf(next.document)],
    );
    if (exact) await this.#docs.snapshotIn(q, next);
    const row: DraftRow = { ...now.row, revision, updated_at: String(iso(r.rows[0]?.updated_at ?? new Date())), snapshot: exact ? revision : now.row.snapshot };
    return { draft: toDraft(row, next), merged: false, state: next, snapshot: row.snapshot };
  }

  async #revisionsAfter(q: Queryable, storyId: string, revision: number): Promise<{ changes: Change[]; inverse: Change[] }[]> {
    const r = await q.query<{ changes: Change[]; inverse: Change[] }>(
      'SELECT changes, inverse FROM looptale_private.story_revisions WHERE story_id = $1 AND revision > $2 ORDER BY revision', [storyId, revision],
    );
    return r.rows;
  }

  async #row(q: Queryable, storyId: string, lock: 'FOR UPDATE' | 'FOR SHARE'): Promise<DraftRow | null> {
    const r = await q.query<{ revision: number; base_version: number | null; updated_at: Date; snapshot: number | null }>(`${ROW_SQL} ${lock} OF d`, [storyId]);
    const x = r.rows[0];
    if (!x) return null;
    return {
      revision: Number(x.revision), base_version: x.base_version === null ? null : Number(x.base_version),
      updated_at: String(iso(x.updated_at)), snapshot: Number(x.snapshot ?? 0),
    };
  }

  /** The draft's row, locked until the transaction ends, and its document at that revision. */
  async #locked(q: Queryable, storyId: string): Promise<Held> {
    if (!isUuid(storyId)) throw new Refused({ kind: 'not_found' });
    const row = await this.#row(q, storyId, 'FOR UPDATE');
    if (!row) throw new Refused({ kind: 'not_found' });
    return { row, state: await this.#docs.at(q, storyId, row.revision, row.snapshot) };
  }

  /** Runs a write in one transaction; the draft it wrote is held in memory only once committed. */
  async #write(body: (q: Queryable) => Promise<Written>): Promise<DraftWrite> {
    try {
      const { state, snapshot, ...out } = await this.#db.tx(body);
      if (state) this.#docs.committed(state, snapshot ?? state.revision);
      return { ok: true, ...out };
    } catch (e) {
      if (e instanceof Refused) return { ok: false, ...e.refusal };
      throw e;
    }
  }
}

/** The value a change writes (undefined for a remove or a field cleared). */
function sentValue(c: Change | undefined): unknown {
  if (!c) return undefined;
  return c.op === 'set' ? c.value : c.op === 'add' ? c.value : undefined;
}
