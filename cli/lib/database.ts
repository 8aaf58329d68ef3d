// Opening the server's database from a CLI command (the one `looptale serve` would use: DATABASE_URL or DATA_DIR,
// or the --database-url / --data-dir flags), with clear errors.
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { ConfigError, loadConfig, type Config } from '../../server/config.js';
import type { Db } from '../../server/db/db.js';
import { DataDirLockedError } from '../../server/db/dir-lock.js';
import { connectDb, openDb } from '../../server/db/open.js';
import { CliError } from './story-file.js';

export type DbOptions = { databaseUrl?: string; dataDir?: string };

/** Adds --database-url and --data-dir; usage errors exit 2. */
export function dbOptions(cmd: Command): Command {
  return cmd
    .exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2))
    .addOption(new Option('--database-url <url>', 'PostgreSQL database (env DATABASE_URL)').conflicts('dataDir'))
    .addOption(new Option('--data-dir <dir>', 'embedded database directory (env DATA_DIR, default ./data)').conflicts('databaseUrl'));
}

/** Where the data lives, for messages (never the password of a URL). */
export function describeDb(c: Config): string {
  if (!c.DATABASE_URL) return `the embedded database in ${resolve(c.DATA_DIR)}`;
  try {
    const u = new URL(c.DATABASE_URL);
    return `PostgreSQL ${u.host}${u.pathname}`;
  } catch {
    return 'PostgreSQL';
  }
}

/** Opens the database as `looptale serve` would (migrating it; `asIs`: schema untouched) and runs `body` on it. */
export async function withDb<T>(o: DbOptions, body: (db: Db, where: string, config: Config) => Promise<T>, opts: { asIs?: boolean } = {}): Promise<T> {
  let config: Config;
  try {
    // --data-dir wins over a DATABASE_URL in the environment (an empty override unsets it).
    config = loadConfig(process.env, { DATABASE_URL: o.dataDir !== undefined ? '' : o.databaseUrl, DATA_DIR: o.dataDir });
  } catch (e) {
    if (e instanceof ConfigError) throw new CliError(e.message);
    throw e;
  }
  let db: Db;
  try {
    db = opts.asIs ? await connectDb(config) : await openDb(config);
  } catch (e) {
    if (e instanceof DataDirLockedError) throw new CliError(`${e.message} (stop the server first, or use its database URL)`);
    throw new CliError(`Cannot open ${describeDb(config)}: ${e instanceof Error ? e.message : String(e)}`);
  }
  try {
    return await body(db, describeDb(config), config);
  } finally {
    await db.close();
  }
}
