// PGlite's memory settings (#14, idle memory): a new data directory is created by a child process (initdb's memory is
// given back when it exits) and moved into place whole; the database runs with a small buffer cache
// (PGLITE_SHARED_BUFFERS, 16MB by default) instead of PostgreSQL's 128MB.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from './pglite.js';

const dir = mkdtempSync(join(tmpdir(), 'looptale-pglite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('PGlite data directory and memory settings', () => {
  it('creates a new database whole (no initdb leftovers), with a 16MB buffer cache; a restart keeps the data and takes another size', async () => {
    const db = await openPglite(dir);
    try {
      expect(existsSync(join(dir, 'pglite', 'PG_VERSION'))).toBe(true);
      expect(readdirSync(dir).filter((f) => f.includes('initdb'))).toEqual([]);
      expect((await db.query<{ shared_buffers: string }>('SHOW shared_buffers')).rows[0]?.shared_buffers).toBe('16MB');
      await db.query('CREATE TABLE kept (v text)');
      await db.query("INSERT INTO kept VALUES ('still here')");
    } finally {
      await db.close();
    }
    const again = await openPglite(dir, { sharedBuffers: '32MB' });
    try {
      expect((await again.query<{ shared_buffers: string }>('SHOW shared_buffers')).rows[0]?.shared_buffers).toBe('32MB');
      expect((await again.query<{ v: string }>('SELECT v FROM kept')).rows).toEqual([{ v: 'still here' }]);
    } finally {
      await again.close();
    }
  }, 120_000);
});
