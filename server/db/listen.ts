// LISTEN/NOTIFY on PostgreSQL: one dedicated connection per process (outside the pool: a pooled connection would lose
// its LISTEN when handed back), so every server process on one database hears what another did within milliseconds.
// NOTIFY is transactional: `notify(q, ...)` inside a transaction is delivered when it commits, never when it rolls back.
//
// Notifications sent while this connection is down are lost, so the connection reconnects with back-off and calls
// `onConnect` handlers after each (re)connect: they catch up from the database. A periodic round trip finds a
// connection that died silently (a proxy's idle timeout, a failover).
import pg from 'pg';
import type { Queryable } from './db.js';
import type { Logger } from '../log.js';

export type NotifyHandler = (payload: string) => void;

/** NOTIFY payloads must be under 8000 bytes. */
export const MAX_PAYLOAD_BYTES = 7_900;

/** Sends a notification on `channel` (delivered at commit when `q` is a transaction). */
export async function notify(q: Queryable, channel: string, payload: string): Promise<void> {
  if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) throw new Error(`notify(${channel}): payload over ${MAX_PAYLOAD_BYTES} bytes`);
  await q.query('SELECT pg_notify($1, $2)', [channel, payload]);
}

export type Connected = { reconnected: false } | { reconnected: true; since: Date | null };

export type ListenerOptions = {
  url: string;
  log: Logger;
  /** Round trip on the listening connection every so often to find a dead one (ms). */
  healthMs?: number;
  /** Reconnect delays grow from min to max (ms). */
  backoffMs?: { min: number; max: number };
};

export class PgListener {
  readonly #o: Required<ListenerOptions>;
  readonly #handlers = new Map<string, Set<NotifyHandler>>();
  readonly #onConnect = new Set<(c: Connected) => Promise<void> | void>();
  #client: pg.Client | null = null;
  #closed = false;
  #connects = 0;
  #timer: NodeJS.Timeout | null = null;
  #health: NodeJS.Timeout | null = null;
  #delay: number;
  /** Database time of the last successful round trip on the listening connection. */
  #alive: Date | null = null;

  constructor(o: ListenerOptions) {
    this.#o = { healthMs: 15_000, backoffMs: { min: 100, max: 5_000 }, ...o };
    this.#delay = this.#o.backoffMs.min;
  }

  /** Subscribes to a channel (LISTENed at once when connected, and after every reconnect). */
  on(channel: string, handler: NotifyHandler): () => void {
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`bad channel name ${channel}`);
    let set = this.#handlers.get(channel);
    if (!set) {
      set = new Set();
      this.#handlers.set(channel, set);
      void this.#client?.query(`LISTEN ${channel}`).catch(() => undefined);
    }
    set.add(handler);
    return () => set.delete(handler);
  }

  /**
   * Runs after each connection is made and LISTENing. On a reconnect, `since` is the database time of the last round
   * trip the lost connection made: what was notified after it may have been missed.
   */
  onConnect(fn: (c: Connected) => Promise<void> | void): void {
    this.#onConnect.add(fn);
  }

  /** Connects for the first time: resolves once listening, rejects when the database is unreachable. */
  async start(): Promise<void> {
    await this.#connect();
  }

  get connected(): boolean {
    return this.#client !== null;
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    if (this.#health) clearInterval(this.#health);
    const c = this.#client;
    this.#client = null;
    await c?.end().catch(() => undefined);
  }

  async #connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.#o.url, keepAlive: true, application_name: 'looptale-listen' });
    client.on('error', (err) => this.#lost(client, err));
    client.on('end', () => this.#lost(client, null));
    client.on('notification', (n) => {
      const set = this.#handlers.get(n.channel);
      if (!set) return;
      for (const h of set) {
        try {
          h(n.payload ?? '');
        } catch (err) {
          this.#o.log.error({ err, channel: n.channel }, 'db: a notification handler failed');
        }
      }
    });
    let now: Date;
    try {
      await client.connect();
      for (const channel of this.#handlers.keys()) await client.query(`LISTEN ${channel}`);
      now = (await client.query<{ now: Date }>('SELECT now() AS now')).rows[0]?.now ?? new Date();
    } catch (e) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      throw e;
    }
    if (this.#closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.#client = client;
    this.#delay = this.#o.backoffMs.min;
    const c: Connected = this.#connects > 0 ? { reconnected: true, since: this.#alive } : { reconnected: false };
    this.#connects += 1;
    this.#alive = now;
    if (c.reconnected) this.#o.log.info({ connects: this.#connects }, 'db: the LISTEN connection is back');
    if (this.#health) clearInterval(this.#health);
    this.#health = setInterval(() => {
      client.query<{ now: Date }>('SELECT now() AS now').then((r) => {
        if (this.#client === client) this.#alive = r.rows[0]?.now ?? this.#alive;
      }, (err: unknown) => this.#lost(client, err as Error));
    }, this.#o.healthMs);
    this.#health.unref();
    for (const fn of this.#onConnect) {
      try {
        await fn(c);
      } catch (err) {
        this.#o.log.warn({ err: { message: (err as Error).message } }, 'db: catching up after (re)connecting failed');
      }
    }
  }

  #lost(client: pg.Client, err: Error | null): void {
    if (this.#client !== client) return;
    this.#client = null;
    if (this.#health) clearInterval(this.#health);
    client.removeAllListeners('notification');
    void client.end().catch(() => undefined);
    if (this.#closed) return;
    this.#o.log.warn({ err: err ? { message: err.message } : undefined }, 'db: the LISTEN connection was lost; reconnecting');
    this.#schedule();
  }

  #schedule(): void {
    if (this.#closed || this.#timer) return;
    const delay = this.#delay;
    this.#delay = Math.min(this.#o.backoffMs.max, this.#delay * 2);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#connect().catch((err: unknown) => {
        this.#o.log.warn({ err: { message: (err as Error).message }, retryMs: this.#delay }, 'db: reconnecting the LISTEN connection failed');
        this.#schedule();
      });
    }, delay);
    this.#timer.unref();
  }
}
