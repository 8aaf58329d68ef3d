// A draft's document as of a revision, without reading or writing the whole document at each change: the stored
// form is the newest snapshot (story_draft_snapshots) and the revisions after it (story_revisions.changes); each
// process keeps the drafts it edits parsed in memory, with their incremental checker (engine/authoring), in a small
// LRU. The caller names the revision it read from story_drafts (under the row's lock when it writes): a draft held
// at that revision is used as it is, one held at an older revision catches up by replaying the revisions it lacks
// (another process wrote them), and one not held is loaded from its snapshot. Memory is updated only after a
// commit, so it never holds a revision the database does not. Snapshots are written after the answer, off the
// writer's path, once a draft is SNAPSHOT_EVERY revisions past its last one.
import { applyChanges, type Json } from '../../engine/authoring/apply.js';
import type { Change } from '../../engine/authoring/change.js';
import type { DraftCheck } from '../../engine/authoring/draft-check.js';
import { DraftChecker } from '../../engine/authoring/incremental-check.js';
import type { Db, Queryable } from '../db/db.js';
import { json } from './rows.js';

/** A draft's document at a revision, with its validator's report. Never modified: a change makes a new one. */
export type DraftState = { storyId: string; revision: number; document: Json; check: DraftCheck; checker: DraftChecker };

export type DraftDocumentsOptions = {
  /** Drafts held in memory per process (a draft takes about 6x its JSON size: 14 MB for a 2.3 MB one). */
  cacheSize?: number;
  /** A new snapshot once a draft is this many revisions past its last one. */
  snapshotEvery?: number;
  /** A snapshot written after the answer failed (nothing is lost: the revisions are stored). */
  onError?: (e: unknown) => void;
};

const isRecord = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);

export class DraftDocuments {
  readonly #db: Db;
  readonly #size: number;
  readonly #every: number;
  /** Insertion order is recency: a hit is moved to the end, the first is evicted. */
  readonly #held = new Map<string, DraftState>();
  readonly #snapshotting = new Map<string, Promise<void>>();
  /** The newest snapshot this process wrote of each draft (the row read may predate it). */
  readonly #snapshots = new Map<string, number>();
  readonly #onError: (e: unknown) => void;

  constructor(db: Db, opts: DraftDocumentsOptions = {}) {
    this.#db = db;
    this.#size = Math.max(1, opts.cacheSize ?? 8);
    this.#every = Math.max(1, opts.snapshotEvery ?? 250);
    this.#onError = opts.onError ?? (() => undefined);
  }

  /**
   * The draft at `revision`, as read from story_drafts under a lock on its row (so no revision is added meanwhile);
   * `snapshot` is the revision of its newest snapshot then.
   */
  async at(q: Queryable, storyId: string, revision: number, snapshot: number): Promise<DraftState> {
    let s = this.#held.get(storyId);
    // A snapshot newer than what is held may be an imported file kept exactly (replace): start from it.
    if (!s || s.revision > revision || s.revision < snapshot) s = await this.#load(q, storyId, revision);
    if (s.revision < revision) s = await this.#replay(q, s, revision);
    this.#touch(s);
    return s;
  }

  /** The draft with `doc` as its next revision, checked from what changed (the caller stores it, then committed()). */
  next(s: DraftState, doc: Json, revision: number): DraftState {
    return { storyId: s.storyId, revision, document: doc, check: s.checker.check(doc), checker: s.checker };
  }

  /** A fresh draft (created, opened from a version, or replaced by a file): checked from scratch. */
  fresh(storyId: string, revision: number, doc: Json): DraftState {
    const checker = new DraftChecker();
    return { storyId, revision, document: doc, check: checker.check(doc), checker };
  }

  /** Writes the draft's document as its snapshot, in the caller's transaction, and deletes the older ones. Two
   *  processes snapshotting one draft at once take turns (a lock of the draft's snapshots only, so writers never
   *  wait on it), and the later one writes nothing when a newer snapshot is there: only the newest is kept. */
  async snapshotIn(q: Queryable, s: DraftState): Promise<void> {
    await q.query("SELECT pg_advisory_xact_lock(hashtext('looptale.draft_snapshot:' || $1))", [s.storyId]);
    await q.query(
      `INSERT INTO looptale_private.story_draft_snapshots (story_id, revision, document)
       SELECT $1, $2, $3::text::json
        WHERE NOT EXISTS (SELECT 1 FROM looptale_private.story_draft_snapshots WHERE story_id = $1 AND revision >= $2)`,
      [s.storyId, s.revision, json(s.document)],
    );
    await q.query(
      `DELETE FROM looptale_private.story_draft_snapshots
        WHERE story_id = $1 AND revision < (SELECT max(revision) FROM looptale_private.story_draft_snapshots WHERE story_id = $1)`,
      [s.storyId],
    );
  }

  /** After the commit of `s`: holds it, and writes a snapshot off the answer's path when one is due. */
  committed(s: DraftState, snapshot: number): void {
    const had = this.#held.get(s.storyId);
    if (!had || had.revision <= s.revision) this.#touch(s);
    const last = Math.max(snapshot, this.#snapshots.get(s.storyId) ?? 0);
    if (s.revision - last < this.#every || this.#snapshotting.has(s.storyId)) return;
    const p = this.#db.tx((q) => this.snapshotIn(q, s))
      // A draft deleted meanwhile, or a database closing: reported; the next writer replays from the older snapshot.
      .then(() => { this.#snapshots.set(s.storyId, Math.max(s.revision, this.#snapshots.get(s.storyId) ?? 0)); })
      .catch((e: unknown) => this.#onError(e))
      .finally(() => this.#snapshotting.delete(s.storyId));
    this.#snapshotting.set(s.storyId, p);
  }

  /** Waits for the snapshots being written. */
  async flush(): Promise<void> {
    await Promise.all(this.#snapshotting.values());
  }

  #touch(s: DraftState): void {
    this.#held.delete(s.storyId);
    this.#held.set(s.storyId, s);
    while (this.#held.size > this.#size) {
      const oldest = this.#held.keys().next().value;
      if (oldest === undefined) break;
      this.#held.delete(oldest);
    }
  }

  /** The newest snapshot at or before `revision` (a snapshot written meanwhile may have replaced the one read). */
  async #load(q: Queryable, storyId: string, revision: number): Promise<DraftState> {
    const r = await q.query<{ revision: number; document: unknown }>(
      `SELECT revision, document FROM looptale_private.story_draft_snapshots
        WHERE story_id = $1 AND revision <= $2 ORDER BY revision DESC LIMIT 1`, [storyId, revision],
    );
    const row = r.rows[0];
    if (!row || !isRecord(row.document)) throw new Error(`draft ${storyId} has no snapshot at or before revision ${revision}`);
    return this.fresh(storyId, Number(row.revision), row.document);
  }

  async #replay(q: Queryable, s: DraftState, revision: number): Promise<DraftState> {
    const r = await q.query<{ revision: number; changes: Change[] }>(
      `SELECT revision, changes FROM looptale_private.story_revisions
        WHERE story_id = $1 AND revision > $2 AND revision <= $3 ORDER BY revision`,
      [s.storyId, s.revision, revision],
    );
    let doc = s.document;
    for (const row of r.rows) {
      const applied = applyChanges(doc, row.changes);
      if (!applied.ok) throw new Error(`draft ${s.storyId}: revision ${row.revision} does not apply on replay: ${applied.problems[0]?.message ?? ''}`);
      doc = applied.doc;
    }
    if (r.rows.length !== revision - s.revision) throw new Error(`draft ${s.storyId}: revisions ${s.revision + 1}..${revision} are not all stored`);
    return this.next(s, doc, revision);
  }
}
