// PGlite's memory settings (#14, idle memory): a new data directory is created by a child process (initdb's memory is
// given back when it exits) and moved into place whole; the database runs with a small buffer cache
// (PGLITE_SHARED_BUFFERS, 16MB by default) instead of PostgreSQL's 128MB. With a template directory (tests), later new
// directories are copies of the first.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from './pglite.js';

const root = mkdtempSync(join(tmpdir(), 'looptale-pglite-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const sharedBuffers = async (db: Awaited<ReturnType<typeof openPglite>>): Promise<string | undefined> =>
  (await db.query<{ shared_buffers: string }>('SHOW shared_buffers')).rows[0]?.shared_buffers;

describe('PGlite data directory and memory settings', () => {
  it('creates a new database whole with a 16MB buffer cache, keeps it as the template, copies it for the next new one; a restart keeps the data and takes another size', async () => {
    // Its own template directory (empty): this first database runs initdb, whatever the environment says.
    const templateDir = join(root, 'template');
    const dir = join(root, 'a');
    const db = await openPglite(dir, { templateDir });
    try {
      expect(existsSync(join(dir, 'pglite', 'PG_VERSION'))).toBe(true);
      expect(readdirSync(dir).filter((f) => f.includes('initdb'))).toEqual([]);
      expect(await sharedBuffers(db)).toBe('16MB');
      // New WAL segments are not zero-filled (see PGLITE_SETTINGS); rows written across a segment switch are kept.
      expect((await db.query<{ wal_init_zero: string }>('SHOW wal_init_zero')).rows[0]?.wal_init_zero).toBe('off');
      await db.query('CREATE TABLE kept (v text)');
      await db.query("INSERT INTO kept VALUES ('still here')");
      await db.query('SELECT pg_switch_wal()');
      await db.query("INSERT INTO kept VALUES ('in the next segment')");
    } finally {
      await db.close();
    }
    expect(readdirSync(templateDir)).toEqual(['pglite']);
    expect(existsSync(join(templateDir, 'pglite', 'PG_VERSION'))).toBe(true);

    const again = await openPglite(dir, { sharedBuffers: '32MB', templateDir });
    try {
      expect(await sharedBuffers(again)).toBe('32MB');
      expect((await again.query<{ v: string }>('SELECT v FROM kept ORDER BY v DESC')).rows).toEqual([{ v: 'still here' }, { v: 'in the next segment' }]);
    } finally {
      await again.close();
    }

    const copy = await openPglite(join(root, 'b'), { templateDir });
    try {
      expect(await sharedBuffers(copy)).toBe('16MB');
      // An empty database: nothing the first one did after it was created.
      expect((await copy.query("SELECT to_regclass('kept') AS t")).rows).toEqual([{ t: null }]);
    } finally {
      await copy.close();
    }
  }, 120_000);
});
