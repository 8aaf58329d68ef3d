// Embedded PostgreSQL (PGlite, WASM) in DATA_DIR. One connection: transactions are serialised by a queue. A lock file
// keeps a second server process off the same data directory.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Db, Queryable, Row } from './db.js';
import { acquireDirLock, type DirLock } from './dir-lock.js';

export async function openPglite(dataDir: string | null): Promise<Db> {
  let lock: DirLock | null = null;
  let db: PGlite;
  if (dataDir === null) {
    db = new PGlite();
  } else {
    const dir = resolve(dataDir);
    mkdirSync(dir, { recursive: true });
    lock = acquireDirLock(dir);
    // relaxedDurability off: every commit is flushed before it is acknowledged.
    db = new PGlite(join(dir, 'pglite'), { relaxedDurability: false });
  }
  await db.waitReady;
  let chain: Promise<unknown> = Promise.resolve();
  // PGlite runs queries synchronously on this thread: yielding before each queued operation lets sockets be read and
  // timers fire between them, so a backlog of turns does not stall the server for seconds.
  const yieldThen = <T>(fn: () => Promise<T>) => () => new Promise<void>((r) => setImmediate(r)).then(fn);
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = yieldThen(fn);
    const next = chain.then(run, run);
    chain = next.catch(() => undefined);
    return next;
  };
  const query = async <T extends Row = Row>(sql: string, params: readonly unknown[] = []): Promise<{ rows: T[]; rowCount: number }> => {
    const r = await db.query<T>(sql, params as unknown[]);
    return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
  };
  return {
    kind: 'pglite',
    query: (sql, params) => serial(() => query(sql, params)),
    tx: <T>(fn: (q: Queryable) => Promise<T>) => serial(() => db.transaction(async (t) => fn({
      query: async <R extends Row = Row>(sql: string, params: readonly unknown[] = []) => {
        const r = await t.query<R>(sql, params as unknown[]);
        return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
      },
    }))),
    async close() {
      await chain;
      await db.close();
      lock?.release();
    },
  };
}
