// The studio's story shelf beyond drafts: deleting a story softly (the author may undo it for DELETE_GRACE_DAYS; the
// catalogue and new runs leave it out at once) and purging it after; the stories in that grace period; and copying a
// story's media to a copy of it. Deletion lives in looptale_private.story_deletions (every story, drafts included) and
// on blueprint_stories.deleted_at (the published row, which the catalogue views read): both change in one transaction.
import type { Db } from '../db/db.js';
import type { MediaStore } from '../media/store.js';
import { readAll } from '../media/store.js';
import { iso, isUuid } from './rows.js';

/** How long a deleted story can be brought back before it is purged. */
export const DELETE_GRACE_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

export type DeletedStory = { id: string; name: string; deleted_at: string; deleted_by: string | null; purge_at: string; published_version: number | null };

export class WorkshopRepo {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  /** Is the story deleted (waiting for its purge)? */
  async isDeleted(storyId: string): Promise<boolean> {
    if (!isUuid(storyId)) return false;
    return (await this.#db.query('SELECT 1 FROM looptale_private.story_deletions WHERE story_id = $1', [storyId])).rows.length > 0;
  }

  /** Does the story exist at all (published, or a draft only)? */
  async exists(storyId: string): Promise<boolean> {
    if (!isUuid(storyId)) return false;
    const r = await this.#db.query(
      'SELECT 1 FROM looptale_private.story_drafts WHERE story_id = $1 UNION ALL SELECT 1 FROM blueprint_stories WHERE id = $1 LIMIT 1', [storyId],
    );
    return r.rows.length > 0;
  }

  /** Deletes the story softly; null when it does not exist. Deleting it again keeps the first time. */
  async delete(storyId: string, by: string): Promise<DeletedStory | null> {
    if (!(await this.exists(storyId))) return null;
    await this.#db.tx(async (q) => {
      await q.query(
        'INSERT INTO looptale_private.story_deletions (story_id, deleted_by) VALUES ($1, $2) ON CONFLICT (story_id) DO NOTHING',
        [storyId, isUuid(by) ? by : null],
      );
      // updated_at moves too: the catalogue's "last updated" and every process's cached copy of the story see it.
      await q.query(
        `UPDATE blueprint_stories SET deleted_at = d.deleted_at, updated_at = clock_timestamp()
           FROM looptale_private.story_deletions d WHERE d.story_id = $1 AND blueprint_stories.id = $1`, [storyId],
      );
    });
    return (await this.#deleted('d.story_id = $1', [storyId]))[0] ?? null;
  }

  /** Brings a deleted story back as it was; false when it was not deleted. */
  async undelete(storyId: string): Promise<boolean> {
    if (!isUuid(storyId)) return false;
    return this.#db.tx(async (q) => {
      const r = await q.query('DELETE FROM looptale_private.story_deletions WHERE story_id = $1 RETURNING 1', [storyId]);
      if (r.rows.length === 0) return false;
      await q.query('UPDATE blueprint_stories SET deleted_at = NULL, updated_at = clock_timestamp() WHERE id = $1', [storyId]);
      return true;
    });
  }

  /** The deleted stories a user may bring back (every one for an admin), newest deletion first. */
  async deleted(userId: string, all: boolean): Promise<DeletedStory[]> {
    return this.#deleted(
      '($2 OR EXISTS (SELECT 1 FROM looptale_private.story_authors a WHERE a.blueprint_story_id = d.story_id AND a.user_id::text = $1))',
      [userId, all],
    );
  }

  async #deleted(where: string, args: unknown[]): Promise<DeletedStory[]> {
    const r = await this.#db.query<{ id: string; name: string | null; deleted_at: Date; deleted_by: string | null; published_version: number | null }>(
      `SELECT d.story_id::text AS id, COALESCE(NULLIF(dr.name, ''), b.name) AS name, d.deleted_at, d.deleted_by::text,
              (SELECT max(version) FROM looptale_private.story_versions v WHERE v.story_id = d.story_id) AS published_version
         FROM looptale_private.story_deletions d
         LEFT JOIN looptale_private.story_drafts dr ON dr.story_id = d.story_id
         LEFT JOIN blueprint_stories b ON b.id = d.story_id
        WHERE ${where}
        ORDER BY d.deleted_at DESC, 1`,
      args,
    );
    return r.rows.map((x) => ({
      id: x.id, name: x.name ?? '', deleted_at: String(iso(x.deleted_at)), deleted_by: x.deleted_by,
      purge_at: new Date(x.deleted_at.getTime() + DELETE_GRACE_DAYS * DAY_MS).toISOString(),
      published_version: x.published_version === null ? null : Number(x.published_version),
    }));
  }

  /**
   * Purges the stories deleted more than DELETE_GRACE_DAYS before `now`: the published story with everything of it
   * (players' runs of it included: the foreign keys cascade), its draft and history, versions and authors. Media
   * files stay in storage. Returns the ids purged.
   */
  async purge(now: Date): Promise<string[]> {
    const cutoff = new Date(now.getTime() - DELETE_GRACE_DAYS * DAY_MS);
    return this.#db.tx(async (q) => {
      const r = await q.query<{ id: string }>(
        'DELETE FROM looptale_private.story_deletions WHERE deleted_at < $1 RETURNING story_id::text AS id', [cutoff],
      );
      const ids = r.rows.map((x) => x.id);
      if (ids.length === 0) return [];
      const list = 'SELECT unnest($1::uuid[])';
      await q.query(`DELETE FROM blueprint_stories WHERE id IN (${list})`, [ids]);
      await q.query(`DELETE FROM looptale_private.story_drafts WHERE story_id IN (${list})`, [ids]);
      await q.query(`DELETE FROM looptale_private.story_versions WHERE story_id IN (${list})`, [ids]);
      await q.query(`DELETE FROM looptale_private.story_authors WHERE blueprint_story_id IN (${list})`, [ids]);
      return ids;
    });
  }

  /** A published version's note, set once (publishing the same document again keeps the first note). */
  async noteVersion(storyId: string, version: number, note: string): Promise<void> {
    await this.#db.query(
      'UPDATE looptale_private.story_versions SET note = $3 WHERE story_id = $1 AND version = $2 AND note IS NULL', [storyId, version, note],
    );
  }

  /** The notes of a story's versions, by version. */
  async notes(storyId: string): Promise<Map<number, string>> {
    if (!isUuid(storyId)) return new Map();
    const r = await this.#db.query<{ version: number; note: string }>(
      'SELECT version, note FROM looptale_private.story_versions WHERE story_id = $1 AND note IS NOT NULL', [storyId],
    );
    return new Map(r.rows.map((x) => [Number(x.version), x.note]));
  }
}

/** Copies every file of one story's folders (images and sounds) to another's, so a copy's relative media paths work. */
export async function copyStoryMedia(media: MediaStore, from: string, to: string): Promise<number> {
  let copied = 0;
  for (const bucket of ['image', 'sound'] as const) {
    for (const f of await media.list(bucket, from)) {
      const body = await readAll(media, bucket, from, f.name);
      if (body && (await media.put(bucket, to, f.name, body, false)) === 'created') copied += 1;
    }
  }
  return copied;
}
