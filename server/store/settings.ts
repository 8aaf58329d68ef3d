// Server settings kept in the database, shared by every server process on it (e.g. a generated JWT secret).
import type { Queryable } from '../db/db.js';

/**
 * The stored value of `key`, created with `generate()` when missing. Race-safe: when two processes start together
 * both try to insert, one wins, and both read the winner's value.
 */
export async function getOrCreateSecret(db: Queryable, key: string, generate: () => string): Promise<string> {
  const found = await db.query<{ value: string }>('SELECT value FROM looptale_private.server_settings WHERE key = $1', [key]);
  if (found.rows[0]) return found.rows[0].value;
  await db.query('INSERT INTO looptale_private.server_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [key, generate()]);
  const r = await db.query<{ value: string }>('SELECT value FROM looptale_private.server_settings WHERE key = $1', [key]);
  const row = r.rows[0];
  if (!row) throw new Error(`store: server setting ${key} could not be created`);
  return row.value;
}

/** A stored setting, or null. */
export async function getSetting(db: Queryable, key: string): Promise<string | null> {
  const r = await db.query<{ value: string }>('SELECT value FROM looptale_private.server_settings WHERE key = $1', [key]);
  return r.rows[0]?.value ?? null;
}

export async function setSetting(db: Queryable, key: string, value: string): Promise<void> {
  await db.query('INSERT INTO looptale_private.server_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value', [key, value]);
}
