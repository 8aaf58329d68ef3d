import type { Config } from '../config.js';
import type { Db } from './db.js';
import { migrate, migrationStatus, SchemaBehindError } from './migrate.js';
import { openPglite } from './pglite.js';
import { openPostgres } from './postgres.js';

type DbConfig = Pick<Config, 'DATABASE_URL' | 'DATA_DIR' | 'DATABASE_POOL_SIZE'> & { MIGRATE_ON_START?: boolean; PGLITE_SHARED_BUFFERS?: string };

/**
 * Opens the configured database and brings its schema up to date (MIGRATE_ON_START, the default). With
 * MIGRATE_ON_START=false the migrations are someone else's job (`supabase db push`, `looptale db migrate`): the schema is
 * only checked, and a database that misses one of this version's migrations is refused.
 */
export async function openDb(config: DbConfig): Promise<Db> {
  const db = await connectDb(config);
  try {
    if (config.MIGRATE_ON_START === false) {
      const { pending } = await migrationStatus(db);
      if (pending.length > 0) {
        throw new SchemaBehindError(
          `The database misses ${pending.length} migration${pending.length > 1 ? 's' : ''} of this version (${pending.join(', ')}) and MIGRATE_ON_START=false: ` +
          'apply them with `supabase db push` or `looptale db migrate`, or start with MIGRATE_ON_START=true.',
        );
      }
    } else {
      await migrate(db);
    }
  } catch (e) {
    await db.close();
    throw e;
  }
  return db;
}

/** Opens the configured database as it is, schema untouched (`looptale db status` and `db migrate`). */
export function connectDb(config: DbConfig): Promise<Db> {
  return config.DATABASE_URL ? openPostgres(config.DATABASE_URL, config.DATABASE_POOL_SIZE) : openPglite(config.DATA_DIR, { sharedBuffers: config.PGLITE_SHARED_BUFFERS });
}
