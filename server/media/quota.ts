// Per-user upload quota: bytes stored through the upload routes over the last 24 hours (MEDIA_USER_DAILY_BYTES), in
// the database (media_uploads), so it holds across restarts and server processes. An upload reserves its bytes before
// it is written, under a per-user advisory lock, and gives them back if the write fails.
import type { Db } from '../db/db.js';

export const QUOTA_WINDOW_MS = 24 * 60 * 60 * 1000;

export type Reservation = { ok: true; id: string } | { ok: false; retryAfterS: number };

type Row = { at: Date; bytes: string };

/** null when `bytes` more fit the window, else the seconds until enough of the oldest uploads have left it. */
function waitFor(rows: readonly Row[], bytes: number, limit: number, now: number): number | null {
  const used = rows.reduce((a, x) => a + Number(x.bytes), 0);
  if (used + bytes <= limit) return null;
  let freed = 0;
  let until = now + QUOTA_WINDOW_MS;
  for (const x of rows) {
    freed += Number(x.bytes);
    if (used - freed + bytes <= limit) {
      until = new Date(x.at).getTime() + QUOTA_WINDOW_MS;
      break;
    }
  }
  return Math.max(1, Math.ceil((until - now) / 1000));
}

const WINDOW_SQL = `SELECT uploaded_at AS at, bytes::text AS bytes FROM looptale_private.media_uploads
  WHERE user_id = $1 AND uploaded_at > now() - interval '24 hours' ORDER BY uploaded_at`;

export class UploadQuota {
  constructor(private readonly db: Db, readonly dailyBytes: number) {}

  /** Whether `bytes` more would fit now: null, or the seconds to wait (a cheap check before reading a body). */
  async wouldWait(userId: string, bytes: number): Promise<number | null> {
    const r = await this.db.query<Row>(WINDOW_SQL, [userId]);
    return waitFor(r.rows, bytes, this.dailyBytes, Date.now());
  }

  /** Reserves `bytes` for this upload, or says how long until enough of the window has passed. */
  reserve(userId: string, where: { bucket: string; storyId: string; file: string }, bytes: number): Promise<Reservation> {
    return this.db.tx(async (q) => {
      await q.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`media-quota:${userId}`]);
      const r = await q.query<Row>(WINDOW_SQL, [userId]);
      const wait = waitFor(r.rows, bytes, this.dailyBytes, Date.now());
      if (wait !== null) return { ok: false as const, retryAfterS: wait };
      const ins = await q.query<{ id: string }>(
        'INSERT INTO looptale_private.media_uploads (user_id, bucket, blueprint_story_id, file, bytes) VALUES ($1, $2, $3, $4, $5) RETURNING id::text AS id',
        [userId, where.bucket, where.storyId, where.file, bytes],
      );
      return { ok: true as const, id: ins.rows[0]?.id ?? '' };
    });
  }

  /** Gives a reservation back (the write failed). */
  async release(id: string): Promise<void> {
    await this.db.query('DELETE FROM looptale_private.media_uploads WHERE id = $1::bigint', [id]);
  }
}
