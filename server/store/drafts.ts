// Story drafts: the one draft of each story, changed a few validated changes at a time (engine/authoring), every
// change kept as a revision with its inverse (history, restore), merged with changes made since the writer's base
// revision or refused as a conflict, and published as the story's next version (StoryRepo.publishIn). Each write is
// one transaction holding the draft's row lock, so two writers are serialised and revisions never skip or repeat.
import { applyChanges, type Json } from '../../engine/authoring/apply.js';
import { type Change, describeChange } from '../../engine/authoring/change.js';
import { diffDrafts } from '../../engine/authoring/diff.js';
import { checkDraft } from '../../engine/authoring/draft-check.js';
import { type Conflict, conflictsOf } from '../../engine/authoring/merge.js';
import { Story } from '../../engine/story/format.js';
import type { Problem } from '../../engine/story/validate.js';
import { Rollback, type Db, type Queryable } from '../db/db.js';
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

type DraftRow = { story_id: string; revision: number; base_version: number | null; document: unknown; report: unknown; updated_at: Date };

function toDraft(r: DraftRow): Draft {
  const report = Array.isArray(r.report) ? (r.report as Problem[]) : [];
  return {
    story_id: r.story_id, revision: Number(r.revision), base_version: r.base_version === null ? null : Number(r.base_version),
    document: isRecord(r.document) ? r.document : {}, report, publishable: !report.some((p) => p.severity === 'error'),
    updated_at: String(iso(r.updated_at)),
  };
}

const summaryOf = (changes: readonly Change[]): string =>
  changes.length === 1 ? describeChange(changes[0] as Change) : `${changes.length} changes: ${changes.slice(0, 3).map(describeChange).join(', ')}${changes.length > 3 ? ', ...' : ''}`;

const DRAFT_SQL = `SELECT story_id::text, revision, base_version, document, report, updated_at FROM looptale_private.story_drafts WHERE story_id = $1`;

export class DraftRepo {
  readonly #db: Db;
  readonly #stories: StoryRepo;

  constructor(db: Db, stories: StoryRepo) {
    this.#db = db;
    this.#stories = stories;
  }

  /** The story's draft, made from its newest version on first use; null when the story has neither. */
  async open(storyId: string, by: string | null): Promise<Draft | null> {
    if (!isUuid(storyId)) return null;
    const have = await this.#db.query<DraftRow>(DRAFT_SQL, [storyId]);
    if (have.rows[0]) return toDraft(have.rows[0]);
    const latest = await this.#db.query<{ version: number; document: unknown }>(
      'SELECT version, document FROM looptale_private.story_versions WHERE story_id = $1 ORDER BY version DESC LIMIT 1', [storyId],
    );
    const v = latest.rows[0];
    if (!v || !isRecord(v.document)) return null;
    const report = checkDraft(v.document).report;
    await this.#db.query(
      `INSERT INTO looptale_private.story_drafts (story_id, revision, base_version, document, report, created_by)
       VALUES ($1, 0, $2, $3::text::json, $4::text::jsonb, $5) ON CONFLICT (story_id) DO NOTHING`,
      [storyId, v.version, json(v.document), json(report), by],
    );
    const r = await this.#db.query<DraftRow>(DRAFT_SQL, [storyId]);
    return r.rows[0] ? toDraft(r.rows[0]) : null;
  }

  /** Makes the story's draft from its newest version when it has none yet (a cheap look-up when it has one). */
  async ensure(storyId: string, by: string | null): Promise<void> {
    if (!isUuid(storyId)) return;
    const have = await this.#db.query('SELECT 1 FROM looptale_private.story_drafts WHERE story_id = $1', [storyId]);
    if (have.rows.length === 0) await this.open(storyId, by);
  }

  /** A new story, as a draft only (no catalogue entry until it is published); `by` becomes its first author. */
  async create(document: Json, by: string): Promise<DraftWrite> {
    const check = checkDraft(document);
    if (check.refused.length > 0) return { ok: false, kind: 'invalid', problems: check.refused };
    const id = String(document.id);
    return this.#write(async (q) => {
      const taken = await q.query(
        'SELECT 1 FROM looptale_private.story_drafts WHERE story_id = $1 UNION ALL SELECT 1 FROM blueprint_stories WHERE id = $1', [id],
      );
      if (taken.rows.length > 0) throw new Refused({ kind: 'exists' });
      await q.query(
        `INSERT INTO looptale_private.story_drafts (story_id, revision, base_version, document, report, created_by)
         VALUES ($1, 0, NULL, $2::text::json, $3::text::jsonb, $4)`,
        [id, json(document), json(check.report), by],
      );
      await q.query('INSERT INTO looptale_private.story_authors (blueprint_story_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [id, by]);
      return { draft: await this.#locked(q, id), merged: false };
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
      if (baseRevision > now.revision) throw new Refused({ kind: 'stale', revision: now.revision });
      let merged = false;
      if (baseRevision < now.revision) {
        const since = await this.#revisionsAfter(q, storyId, baseRevision);
        let baseDoc = now.document;
        for (const r of [...since].reverse()) {
          const back = applyChanges(baseDoc, r.inverse);
          if (back.ok) baseDoc = back.doc;
        }
        const conflicts = conflictsOf(changes, since.flatMap((r) => r.changes), baseDoc, now.document);
        if (conflicts.length > 0) throw new Refused({ kind: 'conflict', revision: now.revision, conflicts });
        merged = true;
      }
      return { draft: await this.#applyAsRevision(q, now, changes, by, summary ?? summaryOf(changes)), merged };
    });
  }

  /** Replaces the whole draft with a story file (an import as a new draft): one revision, field by field. */
  async replace(storyId: string, baseRevision: number, document: Json, by: string): Promise<DraftWrite> {
    return this.#write(async (q) => {
      const now = await this.#locked(q, storyId);
      if (baseRevision !== now.revision) throw new Refused({ kind: 'stale', revision: now.revision });
      if (document.id !== storyId) throw new Refused({ kind: 'invalid', problems: [{ path: '$.id', code: 'change/other_story', message: `The file is story ${String(document.id)}, not ${storyId}.` }] });
      const changes = diffDrafts(now.document, document);
      if (changes.length === 0) return { draft: now, merged: false };
      return { draft: await this.#applyAsRevision(q, now, changes, by, `Imported a story file (${changes.length} change${changes.length === 1 ? '' : 's'})`, document), merged: false };
    });
  }

  /** Restores the draft as it was at `revision`, as a new revision (history only grows). */
  async restore(storyId: string, baseRevision: number, revision: number, by: string): Promise<DraftWrite> {
    return this.#write(async (q) => {
      const now = await this.#locked(q, storyId);
      if (baseRevision !== now.revision) throw new Refused({ kind: 'stale', revision: now.revision });
      if (revision < 0 || revision > now.revision) {
        throw new Refused({ kind: 'invalid', problems: [{ path: '$.revision', code: 'change/no_revision', message: `No revision ${revision}: the draft is at revision ${now.revision}.` }] });
      }
      const since = await this.#revisionsAfter(q, storyId, revision);
      const inverse = [...since].reverse().flatMap((r) => r.inverse);
      if (inverse.length === 0) return { draft: now, merged: false };
      return { draft: await this.#applyAsRevision(q, now, inverse, by, `Restored revision ${revision}`), merged: false };
    });
  }

  /** Publishes the draft as it is at `baseRevision` (it must be the newest and have no error) as the next version,
   *  with the author's note (a version published again unchanged keeps its first note). */
  async publish(storyId: string, baseRevision: number, by: string, note?: string): Promise<DraftWrite> {
    return this.#write(async (q) => {
      const now = await this.#locked(q, storyId);
      if (baseRevision !== now.revision) throw new Refused({ kind: 'stale', revision: now.revision });
      const errors = now.report.filter((p) => p.severity === 'error');
      if (errors.length > 0) throw new Refused({ kind: 'invalid', problems: errors });
      const story = Story.safeParse(now.document);
      if (!story.success) throw new Refused({ kind: 'invalid', problems: [{ path: '$', code: 'schema/invalid', message: 'The draft does not parse as a story.' }] });
      const version = await this.#stories.publishIn(q, story.data, now.document, by);
      if (note !== undefined) {
        await q.query('UPDATE looptale_private.story_versions SET note = $3 WHERE story_id = $1 AND version = $2 AND note IS NULL', [storyId, version, note]);
      }
      await q.query('UPDATE looptale_private.story_drafts SET base_version = $2 WHERE story_id = $1', [storyId, version]);
      return { draft: { ...now, base_version: version }, merged: false, version };
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
              COALESCE(d.document->>'name', b.name, '') AS name,
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

  /** Applies the changes as the next revision and returns the draft as written (it is not read back). */
  async #applyAsRevision(q: Queryable, now: Draft, changes: readonly Change[], by: string, summary: string, exact?: Json): Promise<Draft> {
    const applied = applyChanges(now.document, changes);
    if (!applied.ok) throw new Refused({ kind: 'invalid', problems: applied.problems });
    const doc = exact ?? applied.doc;
    const check = checkDraft(doc);
    if (check.refused.length > 0) throw new Refused({ kind: 'invalid', problems: check.refused });
    const revision = now.revision + 1;
    await q.query(
      `INSERT INTO looptale_private.story_revisions (story_id, revision, author_id, changes, inverse, summary)
       VALUES ($1, $2, $3, $4::text::jsonb, $5::text::jsonb, $6)`,
      [now.story_id, revision, isUuid(by) ? by : null, json(changes), json(applied.inverse), summary.slice(0, 500)],
    );
    const r = await q.query<{ updated_at: Date }>(
      `UPDATE looptale_private.story_drafts SET revision = $2, document = $3::text::json, report = $4::text::jsonb, updated_at = now()
        WHERE story_id = $1 RETURNING updated_at`,
      [now.story_id, revision, json(doc), json(check.report)],
    );
    return {
      ...now, revision, document: doc, report: check.report, publishable: check.publishable,
      updated_at: String(iso(r.rows[0]?.updated_at ?? new Date())),
    };
  }

  async #revisionsAfter(q: Queryable, storyId: string, revision: number): Promise<{ changes: Change[]; inverse: Change[] }[]> {
    const r = await q.query<{ changes: Change[]; inverse: Change[] }>(
      'SELECT changes, inverse FROM looptale_private.story_revisions WHERE story_id = $1 AND revision > $2 ORDER BY revision', [storyId, revision],
    );
    return r.rows;
  }

  async #locked(q: Queryable, storyId: string): Promise<Draft> {
    if (!isUuid(storyId)) throw new Refused({ kind: 'not_found' });
    const r = await q.query<DraftRow>(`${DRAFT_SQL} FOR UPDATE`, [storyId]);
    if (!r.rows[0]) throw new Refused({ kind: 'not_found' });
    return toDraft(r.rows[0]);
  }

  async #write(body: (q: Queryable) => Promise<{ draft: Draft; merged: boolean; version?: number }>): Promise<DraftWrite> {
    try {
      return { ok: true, ...(await this.#db.tx(body)) };
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
