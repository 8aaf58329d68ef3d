// vitest globalSetup: one throwaway PostgreSQL 15 cluster per test run, its URL provided to tests as `pgUrl`
// (inject('pgUrl')); each test file creates its own database on it. When PostgreSQL cannot start, `pgUrl` is empty
// and `pgError` says why: the tests that need it then fail with that message (CI requires PostgreSQL), while the
// others still run.
import type { TestProject } from 'vitest/node';
import { startThrowawayPostgres } from '../../scripts/pg-throwaway.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** postgresql://... of the throwaway server, or '' when it could not start. */
    pgUrl: string;
    /** Why PostgreSQL could not start ('' when it did). */
    pgError: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  try {
    const pg = await startThrowawayPostgres();
    project.provide('pgUrl', pg.url);
    project.provide('pgError', '');
    return () => pg.stop();
  } catch (e) {
    project.provide('pgUrl', '');
    project.provide('pgError', e instanceof Error ? e.message : String(e));
    return () => Promise.resolve();
  }
}
