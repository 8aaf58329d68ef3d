// Media in the database (looptale_private.media_objects): what several server processes on one PostgreSQL share, so
// each serves every file whichever process stored it. Bytes are read by range in SQL (substring), never whole for a
// range request. Rendered variants stay a per-process cache on local disk, keyed by the object's ETag.
import { createHash } from 'node:crypto';
import type { Db } from '../db/db.js';
import { contentTypeOf, type Bucket, type StoredObject } from './storage.js';
import type { ByteRange, MediaStore } from './store.js';

type Row = { file: string; size: number; etag: string; updated_at: Date; content_type: string };

export class DatabaseMediaStore implements MediaStore {
  readonly kind = 'database' as const;

  constructor(private readonly db: Db, readonly cacheRoot: string) {}

  async stat(bucket: Bucket, storyId: string, file: string): Promise<StoredObject | null> {
    const r = await this.db.query<Row>(
      'SELECT file, size, etag, updated_at, content_type FROM looptale_private.media_objects WHERE bucket = $1 AND blueprint_story_id = $2 AND file = $3',
      [bucket, storyId, file],
    );
    const row = r.rows[0];
    return row ? objectOf(row) : null;
  }

  async read(bucket: Bucket, storyId: string, file: string, range?: ByteRange): Promise<Buffer | null> {
    const from = range ? range.start + 1 : 1;
    const len = range ? range.end - range.start + 1 : 2_147_483_647;
    const r = await this.db.query<{ body: Buffer }>(
      'SELECT substring(body FROM $4 FOR $5) AS body FROM looptale_private.media_objects WHERE bucket = $1 AND blueprint_story_id = $2 AND file = $3',
      [bucket, storyId, file, from, len],
    );
    const body = r.rows[0]?.body;
    return body === undefined ? null : Buffer.from(body);
  }

  async list(bucket: Bucket, storyId: string): Promise<StoredObject[]> {
    const r = await this.db.query<Row>(
      'SELECT file, size, etag, updated_at, content_type FROM looptale_private.media_objects WHERE bucket = $1 AND blueprint_story_id = $2 ORDER BY file',
      [bucket, storyId],
    );
    return r.rows.map(objectOf);
  }

  async stories(bucket: Bucket): Promise<string[]> {
    const r = await this.db.query<{ id: string }>('SELECT DISTINCT blueprint_story_id::text AS id FROM looptale_private.media_objects WHERE bucket = $1 ORDER BY 1', [bucket]);
    return r.rows.map((x) => x.id);
  }

  async put(bucket: Bucket, storyId: string, file: string, body: Buffer, upsert: boolean): Promise<'created' | 'replaced' | 'exists'> {
    const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`;
    const params = [bucket, storyId, file, contentTypeOf(file), body.length, etag, body];
    const insert = `INSERT INTO looptale_private.media_objects (bucket, blueprint_story_id, file, content_type, size, etag, body, updated_at)
      VALUES ($1, $2, $3, $4, $5, $6, $7, now())`;
    if (!upsert) {
      const r = await this.db.query(`${insert} ON CONFLICT (bucket, blueprint_story_id, file) DO NOTHING RETURNING 1`, params);
      return r.rowCount > 0 ? 'created' : 'exists';
    }
    const r = await this.db.query<{ inserted: boolean }>(
      `${insert} ON CONFLICT (bucket, blueprint_story_id, file) DO UPDATE
         SET content_type = EXCLUDED.content_type, size = EXCLUDED.size, etag = EXCLUDED.etag, body = EXCLUDED.body, updated_at = now()
       RETURNING (xmax = 0) AS inserted`,
      params,
    );
    return r.rows[0]?.inserted ? 'created' : 'replaced';
  }
}

function objectOf(r: Row): StoredObject {
  return { name: r.file, size: Number(r.size), mtime: new Date(r.updated_at), contentType: r.content_type, etag: r.etag };
}
