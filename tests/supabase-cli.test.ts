// The supabase/ folder is a Supabase CLI project: `supabase db push --db-url` (the npm `supabase` CLI, no Docker)
// applies supabase/migrations to a database set up as a hosted project is (the stand-in), and the game server
// and the CLI keep ONE ledger, supabase_migrations.schema_migrations: what either applied, the other does not apply
// again. With MIGRATE_ON_START=false the server applies nothing and refuses a database that misses a migration.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { migrate, migrationFiles, SchemaBehindError } from '../server/db/migrate.js';
import { openDb } from '../server/db/open.js';
import { supabaseDatabase } from './helpers/databases.js';
import { startTestServer } from './helpers/server.js';

vi.setConfig({ testTimeout: 120_000 });

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'node_modules/.bin/supabase');
const ALL = migrationFiles();
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/**
 * `supabase db push --db-url <url> --yes` in `workdir` (the folder holding supabase/). The stand-in has no TLS, which
 * the CLI otherwise requires (a hosted project has it): sslmode=disable.
 */
function push(workdir: string, url: string, extra: string[] = []): Promise<{ code: number; out: string }> {
  const u = new URL(url);
  u.searchParams.set('sslmode', 'disable');
  return new Promise((resolve) => {
    execFile(CLI, ['db', 'push', '--db-url', u.toString(), '--yes', '--workdir', workdir, ...extra],
      { timeout: 90_000, env: { ...process.env, DO_NOT_TRACK: '1', NO_COLOR: '1' } }, (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, out: `${stdout}${stderr}` });
      });
  });
}

/** A Supabase CLI project holding only the first `n` migrations (what an older checkout would push). */
function projectWith(n: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'looptale-cli-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'supabase/migrations'), { recursive: true });
  cpSync(join(ROOT, 'supabase/config.toml'), join(dir, 'supabase/config.toml'));
  for (const m of ALL.slice(0, n)) cpSync(join(ROOT, 'supabase/migrations', m.file), join(dir, 'supabase/migrations', m.file));
  return dir;
}

async function ledger(url: string): Promise<string[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<{ version: string }>('SELECT version FROM supabase_migrations.schema_migrations ORDER BY version')).rows.map((r) => r.version);
  } finally {
    await c.end();
  }
}

describe('supabase db push and the game server share one ledger', () => {
  it('the CLI applies every migration as `postgres`; the server then starts with MIGRATE_ON_START=false and applies nothing', async () => {
    const db = await supabaseDatabase('cli');
    const pushed = await push(ROOT, db.url);
    expect(pushed.code, pushed.out).toBe(0);
    for (const m of ALL) expect(pushed.out).toContain(`Applying migration ${m.file}`);
    expect(await ledger(db.url)).toEqual(ALL.map((m) => m.version));

    const srv = await startTestServer({ DATABASE_URL: db.url, MIGRATE_ON_START: 'false' });
    try {
      expect((await fetch(`${srv.url}/healthz`)).status).toBe(200);
      const { data, error } = await (await import('./helpers/auth.js')).supabaseClient(srv.url).auth.signUp({ email: 'cli@example.com', password: 'correct horse battery' });
      expect(error).toBeNull();
      expect(data.user?.id).toBeDefined();
    } finally {
      await srv.close();
    }
    const again = await openDb({ DATABASE_URL: db.url, DATA_DIR: '.', DATABASE_POOL_SIZE: 2 });
    try {
      expect(await migrate(again)).toEqual([]);
    } finally {
      await again.close();
    }
  });

  it('the server applies what the CLI did not, and the CLI then finds the database up to date', async () => {
    const db = await supabaseDatabase('cli');
    const older = await push(projectWith(2), db.url);
    expect(older.code, older.out).toBe(0);
    expect(await ledger(db.url)).toEqual(ALL.slice(0, 2).map((m) => m.version));

    const conn = await openDb({ DATABASE_URL: db.url, DATA_DIR: '.', DATABASE_POOL_SIZE: 2, MIGRATE_ON_START: false }).then(
      () => { throw new Error('a database missing migrations was accepted with MIGRATE_ON_START=false'); },
      (e: unknown) => e,
    );
    expect(conn).toBeInstanceOf(SchemaBehindError);
    expect((conn as Error).message).toContain(ALL.slice(2).map((m) => m.file).join(', '));

    const server = await openDb({ DATABASE_URL: db.url, DATA_DIR: '.', DATABASE_POOL_SIZE: 2 });
    await server.close();
    expect(await ledger(db.url)).toEqual(ALL.map((m) => m.version));

    const dry = await push(ROOT, db.url, ['--dry-run']);
    expect(dry.code, dry.out).toBe(0);
    expect(dry.out).toContain('Remote database is up to date.');
    const none = await push(ROOT, db.url);
    expect(none.code, none.out).toBe(0);
    expect(none.out).toContain('Remote database is up to date.');
    expect(none.out).not.toContain('Applying migration');
  });
});
