import type { Config } from '../config.js';
import type { Db } from './db.js';
import { migrate } from './migrate.js';
import { openPglite } from './pglite.js';
import { openPostgres } from './postgres.js';

/** Opens the configured database and brings its schema up to date. */
export async function openDb(config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR' | 'DATABASE_POOL_SIZE'>): Promise<Db> {
  const db = config.DATABASE_URL ? await openPostgres(config.DATABASE_URL, config.DATABASE_POOL_SIZE) : await openPglite(config.DATA_DIR);
  try {
    await migrate(db);
  } catch (e) {
    await db.close();
    throw e;
  }
  return db;
}
