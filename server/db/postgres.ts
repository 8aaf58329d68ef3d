// A real PostgreSQL server (DATABASE_URL) through a `pg` pool; several server processes may share it.
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Db, Queryable, QueryOptions, Row } from './db.js';

/** A prepared statement's name: from its text, so every connection prepares a text once under one name. */
function statementName(sql: string): string {
  return `looptale_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
}

export async function openPostgres(url: string, poolSize: number): Promise<Db> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // Fail fast with a clear message when the server is unreachable.
  const c = await pool.connect();
  c.release();
  const wrap = (q: pg.Pool | pg.PoolClient): Queryable => ({
    async query<T extends Row = Row>(sql: string, params: readonly unknown[] = [], opts: QueryOptions = {}) {
      const r = opts.prepare
        ? await q.query({ name: statementName(sql), text: sql, values: params as unknown[] })
        : await q.query(sql, params as unknown[]);
      return { rows: r.rows as T[], rowCount: r.rowCount ?? r.rows.length };
    },
  });
  return {
    kind: 'postgres',
    query: (sql, params, opts) => wrap(pool).query(sql, params, opts),
    async tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const out = await fn(wrap(client));
        await client.query('COMMIT');
        return out;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw e;
      } finally {
        client.release();
      }
    },
    async close() {
      await pool.end();
    },
  };
}
