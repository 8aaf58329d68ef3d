// PGlite is PostgreSQL in single-user mode: no autovacuum. Every turn rewrites the player's state (a compressed JSON
// of 4-5 KB, kept in player_story_states' TOAST table) and leaves the old version dead, so without a VACUUM the data
// directory grows ~3.75 KB per turn for ever (~3.4 GB per hour at 250 turns/s, #12 notes). This is the autovacuum
// PGlite lacks, kept small: after `everyCalls` database calls, at the first moment nothing else is waiting for the
// connection, the tables whose rows were updated or deleted at least `minChanges` times since their last VACUUM are
// vacuumed (plain VACUUM: the dead space is reused, nothing is locked for long: 2-9 ms for the state table).
// A server that is never idle still gets one after `forceAfterCalls` calls (the stall then is a few ms once a minute
// or so at 250 turns/s, not a growing disk).
import type { Queryable } from './db.js';

export type VacuumPolicy = { everyCalls: number; forceAfterCalls: number; minChanges: number };
export const DEFAULT_VACUUM_POLICY: VacuumPolicy = { everyCalls: 2_000, forceAfterCalls: 20_000, minChanges: 500 };

type Counts = Map<string, number>;

/** Counts calls and says when a VACUUM is due; `run` does it and remembers what each table had changed by then. */
export class PgliteVacuum {
  #calls = 0;
  #seen: Counts = new Map();
  #running = false;

  constructor(private readonly policy: VacuumPolicy = DEFAULT_VACUUM_POLICY) {}

  /** One database call was made. */
  count(): void {
    this.#calls++;
  }

  /** Whether to vacuum now, given whether other calls are waiting for the connection. */
  due(busy: boolean): boolean {
    if (this.#running) return false;
    return this.#calls >= (busy ? this.policy.forceAfterCalls : this.policy.everyCalls);
  }

  /** Vacuums the tables that changed enough; returns their names. Nothing else may use `q` meanwhile. */
  async run(q: Queryable): Promise<string[]> {
    this.#running = true;
    this.#calls = 0;
    try {
      // The backend flushes its table counters at most once a second when idle, which PGlite never is: ask for it.
      await q.query('SELECT pg_stat_force_next_flush()');
      const { rows } = await q.query<{ name: string; changes: string }>(
        `SELECT format('%I.%I', schemaname, relname) AS name, (n_tup_upd + n_tup_del)::text AS changes
           FROM pg_stat_user_tables`,
      );
      const due: string[] = [];
      for (const r of rows) {
        const changes = Number(r.changes);
        if (changes - (this.#seen.get(r.name) ?? 0) >= this.policy.minChanges) due.push(r.name);
        // A table whose counters went back (stats reset by a restart) starts again from what it says now.
        if (changes < (this.#seen.get(r.name) ?? 0)) this.#seen.set(r.name, changes);
      }
      if (due.length > 0) {
        await q.query(`VACUUM ${due.join(', ')}`);
        for (const r of rows) if (due.includes(r.name)) this.#seen.set(r.name, Number(r.changes));
      }
      return due;
    } finally {
      this.#running = false;
    }
  }
}
