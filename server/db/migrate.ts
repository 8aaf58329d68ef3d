// Plain SQL migrations in supabase/migrations (VERSION_name.sql, the Supabase CLI's layout), applied in order, each
// once, in one transaction. The ledger is the Supabase CLI's own table, supabase_migrations.schema_migrations, on every
// backend: a migration applied by `supabase db push` is not applied again by the server, and one the server applied
// is not pushed again. An advisory lock keeps two server processes starting together from racing.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db, Queryable } from './db.js';

export const MIGRATIONS_DIR = join(import.meta.dirname, '../../supabase/migrations');

/** The Supabase CLI's file name pattern: digits, underscore, name. */
const FILE = /^(\d+)_(.+)\.sql$/;

export type Migration = { version: string; name: string; file: string; sql: string };

export function migrationFiles(dir = MIGRATIONS_DIR): Migration[] {
  const out: Migration[] = [];
  for (const file of readdirSync(dir).sort()) {
    const m = FILE.exec(file);
    if (!m?.[1] || !m[2]) continue;
    out.push({ version: m[1], name: m[2], file, sql: readFileSync(join(dir, file), 'utf8') });
  }
  const seen = new Set<string>();
  for (const m of out) {
    if (seen.has(m.version)) throw new Error(`Two migrations share the version ${m.version} in ${dir}: give one the next number.`);
    seen.add(m.version);
  }
  return out;
}

/** The ledger's table exactly as the Supabase CLI creates it (it adds nothing the server needs). */
const LEDGER_DDL = [
  'CREATE SCHEMA IF NOT EXISTS supabase_migrations',
  'CREATE TABLE IF NOT EXISTS supabase_migrations.schema_migrations (version text NOT NULL PRIMARY KEY, statements text[], name text)',
];

/**
 * The previous version kept its own ledger, public.schema_migrations (name '0001_core.sql', applied_at): its rows move
 * into the shared ledger and the table goes. Another tool's public.schema_migrations (a `version` column) is left alone.
 */
async function adoptOldLedger(q: Queryable): Promise<void> {
  const cols = await q.query<{ column_name: string }>(
    "SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 'schema_migrations'",
  );
  const names = new Set(cols.rows.map((c) => c.column_name));
  if (!(names.size === 2 && names.has('name') && names.has('applied_at'))) return;
  await q.query(
    `INSERT INTO supabase_migrations.schema_migrations (version, name)
     SELECT substring(name FROM '^(\\d+)_'), substring(name FROM '^\\d+_(.+)\\.sql$') FROM public.schema_migrations
     WHERE name ~ '^\\d+_.+\\.sql$'
     ON CONFLICT (version) DO NOTHING`,
  );
  await q.query('DROP TABLE public.schema_migrations');
}

async function appliedVersions(q: Queryable): Promise<Set<string>> {
  return new Set((await q.query<{ version: string }>('SELECT version FROM supabase_migrations.schema_migrations')).rows.map((r) => r.version));
}

/** Applies the migrations not yet in the ledger; returns the files applied. */
export async function migrate(db: Db, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = migrationFiles(dir);
  const applied: string[] = [];
  await db.tx(async (q) => {
    await q.query('SELECT pg_advisory_xact_lock(7324011)');
    for (const sql of LEDGER_DDL) await q.query(sql);
    await adoptOldLedger(q);
    const done = await appliedVersions(q);
    for (const m of files) {
      if (done.has(m.version)) continue;
      await q.query(m.sql);
      await q.query('INSERT INTO supabase_migrations.schema_migrations (version, name, statements) VALUES ($1, $2, $3)', [m.version, m.name, [m.sql]]);
      applied.push(m.file);
    }
  });
  return applied;
}

export type MigrationStatus = {
  /** Files this server has that the database has not applied, in order. */
  pending: string[];
  /** Versions in the ledger that this server does not know (applied by a newer version). */
  unknown: string[];
};

/** What migrate() would do, without changing anything (the ledger may not exist yet: everything is pending). */
export async function migrationStatus(db: Db, dir = MIGRATIONS_DIR): Promise<MigrationStatus> {
  const files = migrationFiles(dir);
  const ledger = await db.query<{ t: string | null; old: string | null }>(
    "SELECT to_regclass('supabase_migrations.schema_migrations')::text AS t, to_regclass('public.schema_migrations')::text AS old",
  );
  let done = new Set<string>();
  if (ledger.rows[0]?.t) done = await appliedVersions(db);
  else if (ledger.rows[0]?.old) {
    // The previous version's ledger, not adopted yet.
    const r = await db.query<{ name: string }>('SELECT name FROM public.schema_migrations').catch(() => ({ rows: [] as { name: string }[] }));
    done = new Set(r.rows.map((x) => /^(\d+)_/.exec(x.name)?.[1] ?? ''));
  }
  const known = new Set(files.map((m) => m.version));
  return {
    pending: files.filter((m) => !done.has(m.version)).map((m) => m.file),
    unknown: [...done].filter((v) => v !== '' && !known.has(v)).sort(),
  };
}

export class SchemaBehindError extends Error {}
