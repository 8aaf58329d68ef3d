// Writing engine-shaped records: one statement per table and key set, the records passed as one JSON document and
// turned into typed rows by json_populate_recordset (PostgreSQL converts each field to its column's type: uuid,
// integer, timestamptz, jsonb; a json column gets the value's text as written). Table and column names come from code, never from input, and are checked anyway.
import type { Queryable } from '../db/db.js';

const IDENT = /^[a-z_][a-z0-9_]*$/;

function ident(name: string): string {
  if (!IDENT.test(name)) throw new Error(`store: ${JSON.stringify(name)} is not a plain SQL identifier`);
  return `"${name}"`;
}

export type WriteMode = 'insert' | 'upsert';

/**
 * Inserts records that all have the same keys (the columns written); `upsert` updates a row whose id exists.
 * A key whose value is undefined must be left out by the caller (JSON drops it, which would write NULL).
 * With `owner` (a column such as user_id, among the keys), an upsert never takes over a row of another owner: an
 * id that collides with one throws instead of overwriting it.
 */
export async function writeRecords(
  q: Queryable, table: string, records: readonly Record<string, unknown>[], mode: WriteMode, owner?: string,
): Promise<void> {
  const first = records[0];
  if (!first) return;
  const w = recordsSql(table, Object.keys(first), '$1', mode, owner);
  const r = await q.query(w.sql, [JSON.stringify(records)]);
  if (w.guarded && r.rows.length !== records.length) throw ownerCollision(table, records.length - r.rows.length, owner ?? '');
}

/**
 * The INSERT of writeRecords for records with these keys, reading them from the JSON text parameter `param` (such as
 * '$3'); `where` (a SQL condition) can make the insert conditional, for use inside a WITH. `guarded`: the statement
 * returns one row per record written, and fewer rows mean an owner collision.
 */
export function recordsSql(table: string, columns: readonly string[], param: string, mode: WriteMode, owner?: string, where?: string): { sql: string; guarded: boolean } {
  const list = columns.map(ident).join(', ');
  const t = ident(table);
  const update = columns.filter((c) => c !== 'id').map((c) => `${ident(c)} = EXCLUDED.${ident(c)}`).join(', ');
  const guard = owner !== undefined && columns.includes(owner) ? owner : undefined;
  let conflict = '';
  let guarded = false;
  if (mode === 'upsert') {
    conflict = update ? ` ON CONFLICT (id) DO UPDATE SET ${update}` : ' ON CONFLICT (id) DO NOTHING';
    if (update && guard) {
      conflict += ` WHERE ${t}.${ident(guard)} = EXCLUDED.${ident(guard)} RETURNING 1 AS written`;
      guarded = true;
    }
  }
  return { sql: `INSERT INTO ${t} (${list}) SELECT ${list} FROM json_populate_recordset(NULL::${t}, ${param}::text::json)${where ? ` WHERE ${where}` : ''}${conflict}`, guarded };
}

export function ownerCollision(table: string, n: number, owner: string): Error {
  return new Error(`store: ${n} ${table} row id(s) collide with rows of another ${owner}`);
}

/** Groups records by their set of defined keys, so each group is one writeRecords call; undefined values dropped. */
export function byKeySet(records: readonly Record<string, unknown>[]): Record<string, unknown>[][] {
  const groups = new Map<string, Record<string, unknown>[]>();
  for (const r of records) {
    const clean = Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined));
    const key = Object.keys(clean).sort().join(',');
    const g = groups.get(key);
    if (g) g.push(clean);
    else groups.set(key, [clean]);
  }
  return [...groups.values()];
}
