// Reading rows back from either driver: timestamps come back as Date objects and become the ISO strings the engine
// uses; then a zod schema gives the row its engine shape. Ids from outside are checked before they reach a uuid
// column (PostgreSQL would throw on a malformed one).
import type { z } from 'zod';
import type { Row } from '../db/db.js';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for any UUID shape (a uuid column accepts it). */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_RE.test(value);
}

/** A timestamp as the engine writes it (Date#toISOString); other values unchanged. */
export function iso(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : value;
}

/** The row with every Date turned into an ISO string. */
export function plain(row: Row): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[k] = iso(v);
  return out;
}

/**
 * Rows read back as JSON (json_agg): their timestamps are text with the server's offset and microseconds; as the
 * drivers do for a timestamp column, each becomes the millisecond ISO string the engine writes.
 */
export function jsonRows(rows: readonly Row[] | undefined, timestamps: readonly string[]): Row[] {
  return (rows ?? []).map((row) => {
    const out: Row = { ...row };
    for (const k of timestamps) {
      const v = out[k];
      if (typeof v === 'string') out[k] = new Date(v).toISOString();
    }
    return out;
  });
}

/** Parses driver rows with an engine schema. A row that does not fit is a bug (or a hand-edited database): throw. */
export function parseRows<S extends z.ZodType>(schema: S, rows: readonly Row[], what: string): z.infer<S>[] {
  return rows.map((row) => {
    const r = schema.safeParse(plain(row));
    if (!r.success) {
      const issue = r.error.issues[0];
      throw new Error(`store: a ${what} row does not fit its schema (${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid'})`);
    }
    return r.data;
  });
}

/** A value for a `$n::text::jsonb` parameter: both drivers then pass JSON text and PostgreSQL parses it. */
export function json(value: unknown): string {
  return JSON.stringify(value);
}
