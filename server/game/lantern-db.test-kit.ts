// For the game service's tests: a migrated PGlite database in a temp dir holding The Lantern Keeper, opened before the
// file's tests and removed after them.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { Story } from '../../engine/story/format.js';
import type { Db } from '../db/db.js';
import { migrate } from '../db/migrate.js';
import { openPglite } from '../db/pglite.js';
import { StoryRepo } from '../store/stories.js';

const RAW = JSON.parse(readFileSync(join(import.meta.dirname, '../../fixtures/stories/lantern-keeper/story.json'), 'utf8')) as unknown;
export const LANTERN_STORY = Story.parse(RAW);

/** Registers the hooks; `db()` is the open database inside the tests. */
export function useLanternDb(prefix: string): { db: () => Db } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  let db: Db | undefined;
  beforeAll(async () => {
    db = await openPglite(dir);
    await migrate(db);
    await new StoryRepo(db).importStory(LANTERN_STORY, RAW);
  });
  afterAll(async () => {
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    db: () => {
      if (!db) throw new Error('the database is opened in beforeAll');
      return db;
    },
  };
}
