// `looptale db status` and `looptale db migrate`, run as the real command: on a new data directory, and on a database
// made by the previous version (its own ledger, not adopted yet).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationFiles } from '../server/db/migrate.js';
import { legacyDump, postgresDatabase } from './helpers/databases.js';

const ROOT = join(import.meta.dirname, '..');
const FILES = migrationFiles().map((m) => m.file);
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

type Run = { code: number; stdout: string; stderr: string };
const looptale = (...args: string[]): Promise<Run> => new Promise((resolve) => {
  execFile(process.execPath, ['bin/looptale.js', ...args], { cwd: ROOT, env: { ...process.env, DATABASE_URL: '' } }, (error, stdout, stderr) => {
    resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
  });
});

describe('looptale db status / migrate', () => {
  it('on a new data directory: everything pending (exit 1), then applied, then up to date', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'looptale-db-'));
    dirs.push(dir);
    const before = await looptale('db', 'status', '--data-dir', dir);
    expect(before.code).toBe(1);
    expect(before.stdout).toContain(`misses ${FILES.length} migrations`);
    for (const f of FILES) expect(before.stdout).toContain(`  ${f}`);
    const applied = await looptale('db', 'migrate', '--data-dir', dir);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout.trim().split('\n').slice(1).map((l) => l.trim())).toEqual(FILES);
    const after = await looptale('db', 'status', '--data-dir', dir);
    expect(after).toMatchObject({ code: 0, stdout: expect.stringContaining('is up to date.') as unknown });
  });

  it('on the previous version’s database: only what it lacks is pending, and migrate applies just that', async () => {
    const url = await postgresDatabase('clidb');
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      await c.query(legacyDump());
    } finally {
      await c.end();
    }
    const before = await looptale('db', 'status', '--database-url', url);
    expect(before.code).toBe(1);
    const pending = before.stdout.trim().split('\n').slice(1).map((l) => l.trim());
    expect(pending).toEqual(FILES.filter((f) => !['0001_core.sql', '0002_auth.sql'].includes(f)));
    const applied = await looptale('db', 'migrate', '--database-url', url);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout.trim().split('\n').slice(1).map((l) => l.trim())).toEqual(pending);
  });

  it('says clearly when the database cannot be reached (exit 2)', async () => {
    const r = await looptale('db', 'status', '--database-url', 'postgresql://nobody@127.0.0.1:1/none');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^looptale: Cannot open PostgreSQL 127\.0\.0\.1:1\/none/);
  });
});
