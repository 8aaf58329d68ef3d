// Where the secret that signs local access tokens lives (threat model: docs/secrets-on-disk.md).
//   JWT_SECRET set          -> that value, kept by whoever deploys the server; nothing is stored.
//   embedded database       -> DATA_DIR/jwt-secret, a 0600 file made on first start. Never in the database: its files
//                              and write-ahead log are what people copy around (backups, bug reports, `cp -r data`),
//                              and a secret in the WAL stays in old segments long after the row is gone.
//   PostgreSQL, no JWT_SECRET -> looptale_private.server_settings, shared by every process on the database (they may run
//                              on different machines), with a warning at every start: a dump of the database signs tokens.
// A secret an older version kept in the embedded database is deleted and replaced by a new one: tokens it signed stop
// working (players' sessions continue through their refresh tokens), and a copy of the old files signs nothing.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config } from '../config.js';
import type { Db } from '../db/db.js';
import { PRIVATE_FILE_MODE } from '../db/private-files.js';
import type { Logger } from '../log.js';
import { getOrCreateSecret } from '../store/settings.js';
import { randomSecret } from './tokens.js';

const SETTING_KEY = 'auth.jwt_secret';
export const SECRET_FILE = 'jwt-secret';
const MIN_LENGTH = 32;

/** The secret in `file`, created (0600, exclusively: two starts racing read the same one) when missing. */
function fileSecret(file: string): string {
  try {
    writeFileSync(file, `${randomSecret(48)}\n`, { flag: 'wx', mode: PRIVATE_FILE_MODE });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  const value = readFileSync(file, 'utf8').trim();
  if (value.length < MIN_LENGTH) throw new Error(`${file} holds no usable signing secret (under ${MIN_LENGTH} characters): delete it to have a new one made`);
  return value;
}

export async function loadJwtSecret(db: Db, config: Pick<Config, 'JWT_SECRET' | 'DATA_DIR'>, log: Logger): Promise<Uint8Array> {
  let value: string;
  if (config.JWT_SECRET !== undefined) {
    value = config.JWT_SECRET;
  } else if (db.kind === 'pglite') {
    const file = join(resolve(config.DATA_DIR), SECRET_FILE);
    value = fileSecret(file);
    const dropped = await db.query(`DELETE FROM looptale_private.server_settings WHERE key = $1`, [SETTING_KEY]);
    if (dropped.rowCount > 0) {
      log.warn({ file }, 'auth: the token-signing secret an older version kept in the database was deleted; a new one in the file signs tokens from now on (players sign in again only if their refresh token is gone)');
    }
  } else {
    value = await getOrCreateSecret(db, SETTING_KEY, () => randomSecret(48));
    log.warn('auth: JWT_SECRET is not set, so the token-signing secret is kept in the database: whoever reads a dump or backup of it can sign access tokens. Set JWT_SECRET (the same value in every process) to keep it out');
  }
  return new TextEncoder().encode(value);
}
