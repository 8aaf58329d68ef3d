// Databases for cross-folder tests: a fresh database on the throwaway PostgreSQL or on the Supabase stand-in (both
// started by tests/setup/postgres.ts), the previous version's database fixture, and a fingerprint of the schema to
// compare two databases' layouts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { inject } from 'vitest';
import { createDatabase } from '../../scripts/pg-throwaway.js';
import { createSupabaseDatabase } from '../../scripts/supabase-standin.js';
import type { Queryable } from '../../server/db/db.js';

export async function postgresDatabase(prefix: string): Promise<string> {
  const url = inject('pgUrl');
  if (!url) throw new Error(`These tests need PostgreSQL 15 (scripts/pg-throwaway.ts): ${inject('pgError')}`);
  return createDatabase(url, prefix);
}

/** A fresh Supabase-like project database: `url` connects as `postgres`, `adminUrl` as the superuser. */
export async function supabaseDatabase(prefix: string): Promise<{ url: string; adminUrl: string }> {
  const admin = inject('supabaseAdminUrl');
  if (!admin) throw new Error(`These tests need the Supabase stand-in (scripts/supabase-standin.ts): ${inject('supabaseError')}`);
  return createSupabaseDatabase(admin, prefix);
}

/**
 * The previous version's database (commit e54d3a4, before the schemas moved), as `pg_dump --inserts --no-owner
 * --no-privileges` printed it: its schema as its migrations made it, and what its server wrote while two players played
 * (fixtures/db/README.md).
 */
export function legacyDump(): string {
  return gunzipSync(readFileSync(join(import.meta.dirname, '../../fixtures/db/looptale-0.1.sql.gz'))).toString('utf8');
}

/** The schemas the migrations own (the layout compared between a fresh and an upgraded database). */
export const OWN_SCHEMAS = ['public', 'looptale_private', 'looptale_auth', 'marketing', 'prompt_management', 'supabase_migrations'];

/**
 * Every object of OWN_SCHEMAS as text, sorted: columns, constraints, indexes, triggers, views, functions, RLS flags,
 * policies and privileges. Two databases with equal fingerprints have the same layout (whatever their rows).
 */
export async function schemaFingerprint(q: Queryable): Promise<string[]> {
  const p = [OWN_SCHEMAS];
  const parts = await Promise.all([
    q.query<{ x: string }>(`SELECT format('schema %s acl=%s', nspname, coalesce(nspacl::text, '-')) AS x
      FROM pg_namespace WHERE nspname = ANY($1)`, p),
    q.query<{ x: string }>(`SELECT format('column %s.%s.%s #%s %s null=%s default=%s', table_schema, table_name, column_name,
        ordinal_position, data_type, is_nullable, coalesce(column_default, '-')) AS x
      FROM information_schema.columns WHERE table_schema = ANY($1)`, p),
    q.query<{ x: string }>(`SELECT format('constraint %s.%s %s: %s', n.nspname, c.relname, k.conname, pg_get_constraintdef(k.oid)) AS x
      FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ANY($1)`, p),
    q.query<{ x: string }>(`SELECT format('index %s', indexdef) AS x FROM pg_indexes WHERE schemaname = ANY($1)`, p),
    q.query<{ x: string }>(`SELECT format('trigger %s.%s %s: %s', n.nspname, c.relname, t.tgname, pg_get_triggerdef(t.oid)) AS x
      FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE NOT t.tgisinternal AND n.nspname = ANY($1)`, p),
    q.query<{ x: string }>(`SELECT format('relation %s.%s kind=%s rls=%s force=%s options=%s acl=%s', n.nspname, c.relname, c.relkind,
        c.relrowsecurity, c.relforcerowsecurity, coalesce(c.reloptions::text, '-'), coalesce(c.relacl::text, '-')) AS x
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ANY($1) AND c.relkind IN ('r', 'v', 'm', 'S', 'p')`, p),
    q.query<{ x: string }>(`SELECT format('view %s.%s: %s', schemaname, viewname, definition) AS x FROM pg_views WHERE schemaname = ANY($1)`, p),
    q.query<{ x: string }>(`SELECT format('policy %s.%s %s %s to %s using %s check %s', schemaname, tablename, policyname, cmd, roles::text,
        coalesce(qual, '-'), coalesce(with_check, '-')) AS x FROM pg_policies WHERE schemaname = ANY($1)`, p),
    q.query<{ x: string }>(`SELECT format('function %s acl=%s: %s', p.oid::regprocedure, coalesce(p.proacl::text, '-'), md5(pg_get_functiondef(p.oid))) AS x
      FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = ANY($1)`, p),
    q.query<{ x: string }>(`SELECT format('default acl %s %s %s', coalesce(n.nspname, '*'), d.defaclobjtype, d.defaclacl::text) AS x
      FROM pg_default_acl d LEFT JOIN pg_namespace n ON n.oid = d.defaclnamespace`),
  ]);
  return parts.flatMap((r) => r.rows.map((row) => row.x)).sort();
}

/** Row counts of every table of OWN_SCHEMAS plus `auth`, keyed schema.table. */
export async function rowCounts(q: Queryable, schemas = [...OWN_SCHEMAS, 'auth']): Promise<Record<string, number>> {
  const tables = await q.query<{ s: string; t: string }>(
    "SELECT table_schema AS s, table_name AS t FROM information_schema.tables WHERE table_type = 'BASE TABLE' AND table_schema = ANY($1) ORDER BY 1, 2",
    [schemas],
  );
  const out: Record<string, number> = {};
  for (const { s, t } of tables.rows) {
    const r = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${s}"."${t}"`);
    out[`${s}.${t}`] = r.rows[0]?.n ?? 0;
  }
  return out;
}
