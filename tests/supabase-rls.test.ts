// Row Level Security, grants and the schema layout, as pgTAP tests (supabase/tests/database/*.test.sql, the Supabase
// CLI's place for them) run by pg_prove on a fresh project database of the Supabase stand-in, migrated by the server's
// own migrator as `postgres`. Each test file reads and writes every relation as anon, two signed-in players and the
// service key, the way PostgREST runs a request (SET LOCAL ROLE + request.jwt.claims). Needs Debian's
// postgresql-15-pgtap and pg_prove (.ci/run installs them).
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PG_BIN_DIR } from '../scripts/pg-throwaway.js';
import { migrate } from '../server/db/migrate.js';
import { openPostgres } from '../server/db/postgres.js';
import { supabaseDatabase } from './helpers/databases.js';

const TESTS = join(import.meta.dirname, '../supabase/tests/database');

function pgProve(url: string, files: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve, reject) => {
    execFile('pg_prove', ['--psql-bin', join(PG_BIN_DIR, 'psql'), '--failures', '--dbname', url, ...files],
      { timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') {
          reject(new Error(`pg_prove could not run (apt-get install libtap-parser-sourcehandler-pgtap-perl postgresql-15-pgtap): ${error.message}`));
          return;
        }
        resolve({ code: typeof error?.code === 'number' ? error.code : 0, out: `${stdout}${stderr}` });
      });
  });
}

describe('pgTAP: RLS, grants and layout on a Supabase project', () => {
  it('passes every test of supabase/tests/database with pg_prove', async () => {
    expect(existsSync('/usr/share/postgresql/15/extension/pgtap.control'), 'postgresql-15-pgtap is installed').toBe(true);
    const db = await supabaseDatabase('rls');
    const conn = await openPostgres(db.url, 2);
    try {
      await migrate(conn);
    } finally {
      await conn.close();
    }
    const files = readdirSync(TESTS).filter((f) => f.endsWith('.test.sql')).sort().map((f) => join(TESTS, f));
    expect(files.length).toBeGreaterThanOrEqual(4);
    const { code, out } = await pgProve(db.adminUrl, files);
    expect({ code, result: /^Result: (\w+)/m.exec(out)?.[1] }, out).toEqual({ code: 0, result: 'PASS' });
    const summary = /Files=(\d+), Tests=(\d+)/.exec(out);
    expect(Number(summary?.[1])).toBe(files.length);
    // Every relation x caller x operation: several hundred assertions, not a handful.
    expect(Number(summary?.[2])).toBeGreaterThan(800);
  });
});
