// PGlite runs no autovacuum: without pglite-vacuum.ts, every rewrite of a TOASTed value (a turn's state) leaves the
// old one dead and the data directory grows for ever (#12 notes: ~3.75 KB per turn). With it, the space is reused.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openPglite } from './pglite.js';
import type { Queryable } from './db.js';
import { PgliteVacuum, type VacuumPolicy } from './pglite-vacuum.js';

/** Size in bytes of a table (with its TOAST) after 50 rows of ~6 KB were each rewritten 24 times, one call at a time. */
async function sizeAfterRewrites(vacuum: VacuumPolicy | false): Promise<number> {
  const db = await openPglite(null, { vacuum });
  try {
    await db.query('CREATE TABLE states (id int PRIMARY KEY, state text)');
    // Incompressible, so each value lives in the TOAST table as a state does.
    const value = (): string => randomBytes(4500).toString('base64');
    for (let id = 0; id < 50; id++) await db.query('INSERT INTO states VALUES ($1, $2)', [id, value()]);
    for (let round = 0; round < 24; round++) {
      for (let id = 0; id < 50; id++) await db.query('UPDATE states SET state = $2 WHERE id = $1', [id, value()]);
    }
    // Behind any VACUUM still queued (the driver answers in order).
    return Number((await db.query<{ size: string }>("SELECT pg_total_relation_size('states')::text AS size")).rows[0]?.size);
  } finally {
    await db.close();
  }
}

describe('PGlite vacuum (the autovacuum single-user PostgreSQL lacks)', () => {
  it('keeps a table whose TOASTed rows are rewritten from growing with every rewrite', async () => {
    const policy: VacuumPolicy = { everyCalls: 100, forceAfterCalls: 400, minChanges: 50 };
    const without = await sizeAfterRewrites(false);
    const withVacuum = await sizeAfterRewrites(policy);
    // 1,250 versions of ~6 KB: without a VACUUM all of them stay (~7.5 MB); with one every 100 calls, a few hundred KB.
    expect(without).toBeGreaterThan(1250 * 6000);
    expect(withVacuum).toBeLessThan(without / 4);
  }, 120_000);

  it('vacuums the tables due one per idle moment, the most changed first, so a call waits behind one table at most', async () => {
    const sent: string[] = [];
    let changes: Record<string, number> = { 'public.a': 600, 'public.b': 900, 'public.c': 10 };
    const q: Queryable = {
      query: <T,>(sql: string) => {
        sent.push(sql.replace(/\s+/g, ' ').trim());
        const rows = sql.includes('pg_stat_user_tables') ? Object.entries(changes).map(([name, n]) => ({ name, changes: String(n) })) : [];
        return Promise.resolve({ rows: rows as T[], rowCount: rows.length });
      },
    };
    const v = new PgliteVacuum({ everyCalls: 10, forceAfterCalls: 100, minChanges: 500 });
    for (let i = 0; i < 10; i++) v.count();
    expect(v.due(false)).toBe(true);
    expect(await v.run(q)).toEqual(['public.b']);
    // The other table due waits for the next moment nothing else is waiting, not for another 10 calls.
    expect(v.due(true)).toBe(false);
    expect(v.due(false)).toBe(true);
    expect(await v.run(q)).toEqual(['public.a']);
    expect(v.due(false)).toBe(false);
    expect(sent.filter((s) => s.startsWith('VACUUM'))).toEqual(['VACUUM public.b', 'VACUUM public.a']);
    // Counted from what each table had changed when it was vacuumed.
    changes = { 'public.a': 1000, 'public.b': 1500, 'public.c': 10 };
    for (let i = 0; i < 10; i++) v.count();
    expect(await v.run(q)).toEqual(['public.b']);
    expect(v.due(false)).toBe(false);
  });
});
