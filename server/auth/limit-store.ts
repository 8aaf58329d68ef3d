// Where the auth rate limits keep their counters. One process (PGlite, the default) keeps them in memory; processes
// sharing a PostgreSQL (DATABASE_URL) keep them in looptale_private.auth_limits, so N processes allow the attempts of
// one, whichever process a load balancer picks. Each counter is a small JSON state under a key, read and written in
// one transaction with the row locked (concurrent requests on one key queue up; different keys never wait), and
// forgotten once expired. Keys are hashed before they reach the table: it holds no email or address.
// Times are the server's clock in ms (injected, as everywhere in auth): processes on several machines need their
// clocks in sync (NTP) for windows to line up.
import { createHash } from 'node:crypto';
import type { Db } from '../db/db.js';

export type LimitUpdate<S, R> = (state: S | null) => { state: S | null; ttlMs: number; result: R };

export interface LimitStore {
  readonly kind: 'memory' | 'database';
  /** The key's current state (null when missing or expired). */
  get<S>(key: string): Promise<S | null>;
  /** Reads the key's state, computes its next one (null deletes it) and what to answer, as one atomic step. */
  update<S, R>(key: string, fn: LimitUpdate<S, R>): Promise<R>;
}

const MAX_KEYS = 100_000;

export class MemoryLimitStore implements LimitStore {
  readonly kind = 'memory' as const;
  readonly #map = new Map<string, { state: unknown; expiresAt: number }>();

  constructor(private readonly now: () => number) {}

  get<S>(key: string): Promise<S | null> {
    return Promise.resolve(this.#get<S>(key));
  }

  #get<S>(key: string): S | null {
    const e = this.#map.get(key);
    return e && e.expiresAt > this.now() ? (e.state as S) : null;
  }

  update<S, R>(key: string, fn: LimitUpdate<S, R>): Promise<R> {
    const t = this.now();
    const out = fn(this.#get<S>(key));
    if (out.state === null || out.ttlMs <= 0) {
      this.#map.delete(key);
    } else {
      if (!this.#map.has(key) && this.#map.size >= MAX_KEYS) this.#sweep(t);
      this.#map.set(key, { state: out.state, expiresAt: t + out.ttlMs });
    }
    return Promise.resolve(out.result);
  }

  #sweep(t: number): void {
    for (const [k, e] of this.#map) if (e.expiresAt <= t) this.#map.delete(k);
    if (this.#map.size >= MAX_KEYS) this.#map.clear();
  }
}

/** Expired rows are deleted by one update in this many (and they never count: reads check expires_at). */
const SWEEP_EVERY = 500;

export class DatabaseLimitStore implements LimitStore {
  readonly kind = 'database' as const;
  #updates = 0;

  constructor(private readonly db: Db, private readonly now: () => number) {}

  async get<S>(key: string): Promise<S | null> {
    const r = await this.db.query<{ state: S }>(
      'SELECT state FROM looptale_private.auth_limits WHERE key = $1 AND expires_at > to_timestamp($2::double precision / 1000)',
      [hashed(key), this.now()],
    );
    return r.rows[0]?.state ?? null;
  }

  async update<S, R>(key: string, fn: LimitUpdate<S, R>): Promise<R> {
    const k = hashed(key);
    const t = this.now();
    const result = await this.db.tx(async (q) => {
      // The row exists before it is locked, so two first requests on a key cannot both start from nothing.
      await q.query(
        `INSERT INTO looptale_private.auth_limits (key, state, expires_at) VALUES ($1, 'null', to_timestamp($2::double precision / 1000))
         ON CONFLICT (key) DO NOTHING`,
        [k, t],
      );
      const r = await q.query<{ state: S | null; live: boolean }>(
        `SELECT state, expires_at > to_timestamp($2::double precision / 1000) AS live FROM looptale_private.auth_limits WHERE key = $1 FOR UPDATE`,
        [k, t],
      );
      const row = r.rows[0];
      const out = fn(row?.live ? row.state : null);
      if (out.state === null || out.ttlMs <= 0) {
        await q.query('DELETE FROM looptale_private.auth_limits WHERE key = $1', [k]);
      } else {
        await q.query(
          'UPDATE looptale_private.auth_limits SET state = $2::jsonb, expires_at = to_timestamp($3::double precision / 1000) WHERE key = $1',
          [k, JSON.stringify(out.state), t + out.ttlMs],
        );
      }
      return out.result;
    });
    if (++this.#updates % SWEEP_EVERY === 0) {
      await this.db.query('DELETE FROM looptale_private.auth_limits WHERE expires_at < to_timestamp($1::double precision / 1000)', [t]).catch(() => undefined);
    }
    return result;
  }
}

const hashed = (key: string): string => createHash('sha256').update(key).digest('base64url');

/** A fixed window of `limit` hits per `windowMs` under `key`: whether this hit is allowed. */
export function windowHit(store: LimitStore, key: string, limit: number, windowMs: number, now: number): Promise<boolean> {
  return store.update<{ start: number; count: number }, boolean>(key, (s) => {
    const w = s && now - s.start < windowMs ? { start: s.start, count: s.count + 1 } : { start: now, count: 1 };
    return { state: w, ttlMs: w.start + windowMs - now, result: w.count <= limit };
  });
}
