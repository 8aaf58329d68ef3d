// The Supabase stand-in (shared/tools/supabase-db: a PostgreSQL 15 set up as a hosted Supabase project is: its roles,
// Supabase Auth's own `auth` schema, `postgres` a non-superuser with BYPASSRLS) for tests and local runs. CI has
// shared/ beside the project (../shared); worktrees find it further up. SUPABASE_DB_TOOLS points elsewhere.
//
// One cluster per test run; every test file takes a fresh database copied from a template made right after start-up,
// so each gets Supabase's `auth` schema and grants of its own.
//
//   npx tsx scripts/supabase-standin.ts     prints DATABASE_URL (role postgres) and stays up until Ctrl-C
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';

const ROOT = resolve(import.meta.dirname, '..');
const TEMPLATE = 'looptale_template';

export type SupabaseStandin = {
  /** postgresql://supabase_admin@127.0.0.1:PORT/postgres: the superuser (Supabase keeps it to itself). */
  adminUrl: string;
  /** postgresql://postgres@127.0.0.1:PORT/postgres: the role a project's connection string gives. */
  url: string;
  dir: string;
  stop(): Promise<void>;
};

/** The folder holding start.sh and stop.sh, or null. */
export function standinToolsDir(): string | null {
  const env = process.env.SUPABASE_DB_TOOLS;
  if (env) return existsSync(join(env, 'start.sh')) ? resolve(env) : null;
  let dir = ROOT;
  for (let i = 0; i < 4; i++) {
    const candidate = join(dirname(dir), 'shared/tools/supabase-db');
    if (existsSync(join(candidate, 'start.sh'))) return candidate;
    dir = dirname(dir);
  }
  return null;
}

function run(cmd: string, args: string[], timeoutMs = 120_000): Promise<string> {
  return new Promise((res, rej) => {
    execFile(cmd, args, { timeout: timeoutMs, cwd: tmpdir() }, (error, stdout, stderr) => {
      if (error) rej(new Error(`${cmd} ${args.join(' ')} failed: ${error.message}\n${stderr}`.trim()));
      else res(stdout);
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.on('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const a = srv.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      srv.close(() => res(port));
    });
  });
}

function withDatabase(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

/** Starts a stand-in cluster and makes the template the test databases are copied from. */
export async function startSupabaseStandin(): Promise<SupabaseStandin> {
  const tools = standinToolsDir();
  if (!tools) {
    throw new Error('The Supabase stand-in (shared/tools/supabase-db/start.sh) was not found beside the project: set SUPABASE_DB_TOOLS to its folder.');
  }
  const dir = mkdtempSync(join(tmpdir(), 'looptale-supabase-'));
  const stop = async (): Promise<void> => {
    await run('bash', [join(tools, 'stop.sh'), dir]).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const out = await run('bash', [join(tools, 'start.sh'), String(await freePort()), dir]);
    const vars: Record<string, string> = Object.fromEntries([...out.matchAll(/^export (\w+)=(.*)$/gm)].map((m) => [m[1] ?? '', m[2] ?? '']));
    const adminUrl = vars.SUPABASE_ADMIN_URL;
    const url = vars.DATABASE_URL;
    if (!adminUrl || !url) throw new Error(`start.sh printed no DATABASE_URL / SUPABASE_ADMIN_URL:\n${out}`);
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      await c.query(`CREATE DATABASE ${TEMPLATE} TEMPLATE postgres`);
    } finally {
      await c.end();
    }
    return { adminUrl, url, dir, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/**
 * A new database on the stand-in, a copy of the fresh project (Supabase's roles are cluster-wide; its `auth` schema,
 * extensions and default privileges come with the copy). Returns its URLs for `postgres` and for the superuser.
 */
export async function createSupabaseDatabase(adminUrl: string, prefix = 'sb'): Promise<{ url: string; adminUrl: string }> {
  const name = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    await c.query(`CREATE DATABASE ${pg.escapeIdentifier(name)} TEMPLATE ${TEMPLATE}`);
    // As on a hosted project, where `postgres` may create schemas in the project's database.
    await c.query(`GRANT ALL ON DATABASE ${pg.escapeIdentifier(name)} TO postgres`);
  } finally {
    await c.end();
  }
  const u = new URL(withDatabase(adminUrl, name));
  u.username = 'postgres';
  return { url: u.toString(), adminUrl: withDatabase(adminUrl, name) };
}

async function cli(): Promise<void> {
  const s = await startSupabaseStandin();
  const db = await createSupabaseDatabase(s.adminUrl, 'looptale');
  console.log(`export DATABASE_URL=${db.url}`);
  console.log(`export SUPABASE_ADMIN_URL=${db.adminUrl}`);
  console.error(`Supabase stand-in up (data in ${s.dir}). Press Ctrl-C to stop it and remove the data.`);
  let stopping = false;
  const shutdown = (): void => {
    if (stopping) return;
    stopping = true;
    void s.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  setInterval(() => undefined, 1 << 30);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  cli().catch((e: unknown) => {
    console.error(`supabase-standin: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  });
}
