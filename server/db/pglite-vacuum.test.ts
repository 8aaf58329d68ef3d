// PGlite runs no autovacuum: without pglite-vacuum.ts, every rewrite of a TOASTed value (a turn's state) leaves the
// old one dead and the data directory grows for ever (#12 notes: ~3.75 KB per turn). With it, the space is reused.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openPglite } from './pglite.js';
import type { VacuumPolicy } from './pglite-vacuum.js';

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
});
