// #14, start-up memory: a server's first start peaked at ~1 GB RSS, most of it the child process that creates the
// data directory (PGlite's initdb: a second PostgreSQL instance and the initdb program, ~720 MB, ~2.5 s of CPU). The
// child now unpacks an empty database made once and shipped beside it (pglite-empty.tar.gz, ~350 MB, ~0.8 s), and runs
// initdb only when that was made with another PGlite version. A database unpacked from the template carries the
// template's system identifier; initdb draws a new one: that is how these tests tell the two apart.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from './pglite.js';

const SCRIPT = join(import.meta.dirname, 'pglite-initdb.js');
const TEMPLATE = join(import.meta.dirname, 'pglite-empty.tar.gz');
const MANIFEST = JSON.parse(readFileSync(join(import.meta.dirname, 'pglite-empty.json'), 'utf8')) as { pglite: string; system_identifier: string };
const INSTALLED = (JSON.parse(readFileSync(join(import.meta.dirname, '../../node_modules/@electric-sql/pglite/package.json'), 'utf8')) as { version: string }).version;
const root = mkdtempSync(join(tmpdir(), 'looptale-initdb-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Runs the child as pglite.ts does, into <dataDir>/pglite, then opens the database and reads its identifier. */
async function create(name: string, template?: string): Promise<string | undefined> {
  const dataDir = join(root, name);
  mkdirSync(dataDir);
  await promisify(execFile)(process.execPath, [SCRIPT, join(dataDir, 'pglite'), ...(template ? [template] : [])], { timeout: 120_000 });
  const db = await openPglite(dataDir);
  try {
    return (await db.query<{ id: string }>('SELECT system_identifier::text AS id FROM pg_control_system()')).rows[0]?.id;
  } finally {
    await db.close();
  }
}

describe('a new PGlite data directory', () => {
  it('was made from the installed PGlite version (else remake it: node server/db/pglite-initdb.js --make-template)', () => {
    expect(MANIFEST.pglite).toBe(INSTALLED);
  });

  it('is unpacked from the shipped empty database, not made by initdb', async () => {
    expect(await create('from-template')).toBe(MANIFEST.system_identifier);
  }, 150_000);

  it('is made by initdb when the template comes from another PGlite version', async () => {
    const other = join(root, 'other.tar.gz');
    copyFileSync(TEMPLATE, other);
    writeFileSync(join(root, 'other.json'), JSON.stringify({ ...MANIFEST, pglite: '0.0.1' }));
    const id = await create('by-initdb', other);
    expect(id).toMatch(/^\d+$/);
    expect(id).not.toBe(MANIFEST.system_identifier);
  }, 150_000);
});
