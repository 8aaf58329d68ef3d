// A real PostgreSQL server (DATABASE_URL) through a `pg` pool; several server processes may share it.
import pg from 'pg';
import type { Db, Queryable, Row } from './db.js';

export async function openPostgres(url: string, poolSize: number): Promise<Db> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // Fail fast with a clear message when the server is unreachable.
  const c = await pool.connect();
  c.release();
  const wrap = (q: { query: (sql: string, params: unknown[]) => Promise<pg.QueryResult> }): Queryable => ({
    async query<T extends Row = Row>(sql: string, params: readonly unknown[] = []) {
      const r = await q.query(sql, params as unknown[]);
      return { rows: r.rows as T[], rowCount: r.rowCount ?? r.rows.length };
    },
  });
  return {
    kind: 'postgres',
    query: (sql, params) => wrap(pool).query(sql, params),
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
