// PGlite is PostgreSQL in single-user mode: no autovacuum. Every turn rewrites the player's state (a compressed JSON
// of 4-5 KB, kept in player_story_states' TOAST table) and leaves the old version dead, so without a VACUUM the data
// directory grows ~3.75 KB per turn for ever (~3.4 GB per hour at 250 turns/s, #12 notes). This is the autovacuum
// PGlite lacks, kept small: after `everyCalls` database calls, at the first moment nothing else is waiting for the
// connection, the tables whose rows were updated or deleted at least `minChanges` times since their last VACUUM are
// vacuumed, one table per idle moment (plain VACUUM: the dead space is reused, nothing is locked for long: 2-9 ms for
// the state table on a quiet machine; all the tables due in one statement held every turn behind them for their sum).
// A server that is never idle still gets one after `forceAfterCalls` calls (the stall then is a few ms once a minute
// or so at 250 turns/s, not a growing disk).
import type { Queryable } from './db.js';

export type VacuumPolicy = { everyCalls: number; forceAfterCalls: number; minChanges: number };
export const DEFAULT_VACUUM_POLICY: VacuumPolicy = { everyCalls: 2_000, forceAfterCalls: 20_000, minChanges: 500 };

type Counts = Map<string, number>;

/**
 * Counts calls and says when a VACUUM is due; `run` does it and remembers what each table had changed by then. One
 * table per run: every other call waits while a VACUUM holds the connection, so the tables due are vacuumed one at a
 * time, each at the next moment nothing is waiting, the one with the most changes first, and a turn waits behind one
 * table's VACUUM at most, never behind all of them in one statement.
 */
export class PgliteVacuum {
  #calls = 0;
  #seen: Counts = new Map();
  /** Tables found due and not vacuumed yet, with their change counts when found, most changed first. */
  #pending: [string, number][] = [];
  #running = false;

  constructor(private readonly policy: VacuumPolicy = DEFAULT_VACUUM_POLICY) {}

  /** One database call was made. */
  count(): void {
    this.#calls++;
  }

  /** Whether to vacuum now, given whether other calls are waiting for the connection. */
  due(busy: boolean): boolean {
    if (this.#running) return false;
    if (this.#pending.length > 0 && !busy) return true;
    return this.#calls >= (busy ? this.policy.forceAfterCalls : this.policy.everyCalls);
  }

  /** Vacuums the next table that changed enough; returns its name (none: nothing was due). Nothing else may use `q` meanwhile. */
  async run(q: Queryable): Promise<string[]> {
    this.#running = true;
    try {
      if (this.#pending.length === 0 || this.#calls >= this.policy.everyCalls) {
        this.#calls = 0;
        this.#pending = await this.#find(q);
      }
      const next = this.#pending.shift();
      if (!next) return [];
      await q.query(`VACUUM ${next[0]}`);
      this.#seen.set(next[0], next[1]);
      return [next[0]];
    } finally {
      this.#running = false;
    }
  }

  /** The tables whose rows were updated or deleted at least `minChanges` times since their last VACUUM. */
  async #find(q: Queryable): Promise<[string, number][]> {
    // The backend flushes its table counters at most once a second when idle, which PGlite never is: ask for it.
    await q.query('SELECT pg_stat_force_next_flush()');
    const { rows } = await q.query<{ name: string; changes: string }>(
      `SELECT format('%I.%I', schemaname, relname) AS name, (n_tup_upd + n_tup_del)::text AS changes
         FROM pg_stat_user_tables`,
    );
    const due: [string, number][] = [];
    for (const r of rows) {
      const changes = Number(r.changes);
      // A table whose counters went back (stats reset by a restart) starts again from what it says now.
      if (changes < (this.#seen.get(r.name) ?? 0)) this.#seen.set(r.name, changes);
      const grew = changes - (this.#seen.get(r.name) ?? 0);
      if (grew >= this.policy.minChanges) due.push([r.name, changes]);
    }
    return due.sort((a, b) => (b[1] - (this.#seen.get(b[0]) ?? 0)) - (a[1] - (this.#seen.get(a[0]) ?? 0)));
  }
}
