// Stored-bytes quotas: what a story's media may take in total (MEDIA_STORY_BYTES) and what the media of all the
// stories an author writes may take together (MEDIA_AUTHOR_BYTES). Measured from the media store itself (the sizes of
// the stored objects, both buckets), so seeded, uploaded and imported files all count; replacing a file counts its new
// size instead of the old one. The per-user daily upload quota (quota.ts) is separate and still applies.
import type { Queryable } from '../db/db.js';
import { BUCKETS } from './storage.js';
import type { MediaStore } from './store.js';

export type StoredLimits = { storyBytes: number; authorBytes: number };
export type StoredRefusal = { status: 413; code: 'storage/story_quota' | 'storage/author_quota'; message: string };
/** A file about to be stored: where, and its size (an existing file of that name is replaced). */
export type Incoming = { bucket: (typeof BUCKETS)[number]; file: string; bytes: number };

export const mb = (n: number): string => `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;
/** A size for people: bytes, KB or MB (1024-based), one decimal. */
export const sizeText = (n: number): string =>
  n >= 1024 * 1024 ? mb(n) : n >= 1024 ? `${Math.round((n / 1024) * 10) / 10} KB` : `${n} bytes`;

export class StoredQuota {
  constructor(private readonly store: MediaStore, private readonly db: Queryable, readonly limits: StoredLimits) {}

  /** Bytes a story's media take now. */
  async storyBytes(storyId: string): Promise<number> {
    let total = 0;
    for (const b of BUCKETS) for (const o of await this.store.list(b, storyId)) total += o.size;
    return total;
  }

  /** The stories this user is an author of. */
  async #storiesOf(userId: string): Promise<string[]> {
    const r = await this.db.query<{ id: string }>('SELECT blueprint_story_id::text AS id FROM looptale_private.story_authors WHERE user_id = $1', [userId]);
    return r.rows.map((x) => x.id);
  }

  /**
   * null when the files fit both quotas once stored in this story, else the refusal naming the limit. The author's
   * total covers every story they are an author of, and this one.
   */
  async check(userId: string, storyId: string, files: readonly Incoming[]): Promise<StoredRefusal | null> {
    let delta = 0;
    for (const f of files) delta += f.bytes - ((await this.store.stat(f.bucket, storyId, f.file))?.size ?? 0);
    const story = (await this.storyBytes(storyId)) + delta;
    if (story > this.limits.storyBytes) {
      return { status: 413, code: 'storage/story_quota', message: `The story's media would take ${sizeText(story)}: a story may store at most ${sizeText(this.limits.storyBytes)} of media (MEDIA_STORY_BYTES).` };
    }
    let author = story;
    for (const id of await this.#storiesOf(userId)) if (id !== storyId) author += await this.storyBytes(id);
    if (author > this.limits.authorBytes) {
      return { status: 413, code: 'storage/author_quota', message: `Your stories' media would take ${sizeText(author)}: an author may store at most ${sizeText(this.limits.authorBytes)} of media across their stories (MEDIA_AUTHOR_BYTES).` };
    }
    return null;
  }
}
