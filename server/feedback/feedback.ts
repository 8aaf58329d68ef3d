// Player feedback (/share-feedback): stored in looptale_private.feedback (supabase/migrations/0006_feedback.sql),
// listed to admins. Validated at the edge (zod: a kind, 1-4000 characters, an optional page path), capped per user
// (5 a minute and 30 a day, counted in the database so every server process agrees) and by body size (16 KiB).
import { z } from 'zod';
import type { Queryable } from '../db/db.js';

export const FEEDBACK_KINDS = ['idea', 'problem', 'praise', 'other'] as const;
export const FEEDBACK_MAX_CHARS = 4000;
export const FEEDBACK_BODY_LIMIT = 16 * 1024;
/** Per user: at most this many in the window. */
export const FEEDBACK_LIMITS = [{ count: 5, seconds: 60 }, { count: 30, seconds: 86_400 }] as const;

export const FeedbackInput = z.object({
  kind: z.enum(FEEDBACK_KINDS),
  message: z.string().trim().min(1, 'Please write a message.').max(FEEDBACK_MAX_CHARS, `At most ${FEEDBACK_MAX_CHARS} characters.`),
  page: z.string().max(200).regex(/^\/[^\s]*$/, 'must be a path of this site').optional(),
}).strict();
export type FeedbackInput = z.infer<typeof FeedbackInput>;

export const FeedbackRow = z.object({
  id: z.string(),
  user_id: z.string(),
  email: z.string().nullable(),
  kind: z.enum(FEEDBACK_KINDS),
  message: z.string(),
  page: z.string().nullable(),
  created_at: z.string(),
});
export type FeedbackRow = z.infer<typeof FeedbackRow>;

type DbRow = { id: string; user_id: string; email: string | null; kind: FeedbackRow['kind']; message: string; page: string | null; created_at: Date | string };

function toRow(r: DbRow): FeedbackRow {
  return { ...r, id: String(r.id), created_at: r.created_at instanceof Date ? r.created_at.toISOString() : new Date(r.created_at).toISOString() };
}

export class FeedbackRepo {
  constructor(private readonly db: Queryable) {}

  /** Stores one message, unless the user is over a limit: then null (nothing written). One statement, so two
   * processes racing cannot both pass a limit by much: the count and the insert see the same snapshot per row. */
  async add(userId: string, email: string | null, input: FeedbackInput): Promise<FeedbackRow | null> {
    const [a, b] = FEEDBACK_LIMITS;
    const r = await this.db.query<DbRow>(
      `INSERT INTO looptale_private.feedback (user_id, email, kind, message, page)
       SELECT $1, $2, $3, $4, $5
       WHERE (SELECT count(*) FROM looptale_private.feedback WHERE user_id = $1 AND created_at > now() - make_interval(secs => $6)) < $7
         AND (SELECT count(*) FROM looptale_private.feedback WHERE user_id = $1 AND created_at > now() - make_interval(secs => $8)) < $9
       RETURNING id::text, user_id::text, email, kind, message, page, created_at`,
      [userId, email, input.kind, input.message, input.page ?? null, a.seconds, a.count, b.seconds, b.count],
    );
    const row = r.rows[0];
    return row ? toRow(row) : null;
  }

  /** Newest first, a page at a time. */
  async list(limit: number, before: number | null): Promise<FeedbackRow[]> {
    const r = await this.db.query<DbRow>(
      `SELECT id::text, user_id::text, email, kind, message, page, created_at FROM looptale_private.feedback
       WHERE ($2::bigint IS NULL OR id < $2) ORDER BY id DESC LIMIT $1`,
      [limit, before],
    );
    return r.rows.map(toRow);
  }
}
