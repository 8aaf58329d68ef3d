// vitest globalSetup: one throwaway PostgreSQL 15 cluster per test run, its URL provided to tests as `pgUrl`
// (inject('pgUrl')); each test file creates its own database on it. Beside it, the Supabase stand-in
// (scripts/supabase-standin.ts): its superuser URL as `supabaseAdminUrl`, and each test file copies a fresh project
// database from it (createSupabaseDatabase). When one cannot start, its URL is empty and `pgError` /
// `supabaseError` say why: the tests that need it then fail with that message (CI requires both), while the others
// still run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startThrowawayPostgres } from '../../scripts/pg-throwaway.js';
import { startSupabaseStandin } from '../../scripts/supabase-standin.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** postgresql://... of the throwaway server, or '' when it could not start. */
    pgUrl: string;
    /** Why PostgreSQL could not start ('' when it did). */
    pgError: string;
    /** postgresql://supabase_admin@.../postgres of the Supabase stand-in, or '' when it could not start. */
    supabaseAdminUrl: string;
    /** Why the stand-in could not start ('' when it did). */
    supabaseError: string;
  }
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Every new PGlite database of this run (servers, stores, CLI children: they inherit the environment) is a copy of
  // the first one instead of a fresh initdb (seconds of CPU each): server/db/pglite.ts.
  const pgliteTemplate = mkdtempSync(join(tmpdir(), 'looptale-pglite-template-'));
  process.env.PGLITE_TEMPLATE_DIR ??= pgliteTemplate;
  const [pg, sb] = await Promise.allSettled([startThrowawayPostgres(), startSupabaseStandin()]);
  project.provide('pgUrl', pg.status === 'fulfilled' ? pg.value.url : '');
  project.provide('pgError', pg.status === 'fulfilled' ? '' : message(pg.reason));
  project.provide('supabaseAdminUrl', sb.status === 'fulfilled' ? sb.value.adminUrl : '');
  project.provide('supabaseError', sb.status === 'fulfilled' ? '' : message(sb.reason));
  return async () => {
    rmSync(pgliteTemplate, { recursive: true, force: true });
    if (pg.status === 'fulfilled') await pg.value.stop();
    if (sb.status === 'fulfilled') await sb.value.stop();
  };
}
