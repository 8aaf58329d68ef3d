// The database driver interface: one SQL dialect (PostgreSQL), two drivers: embedded PGlite (default, one process per
// data directory) and a real PostgreSQL server through `pg` (DATABASE_URL, any number of processes).
export type Row = Record<string, unknown>;

export type QueryOptions = {
  /**
   * Keep the statement prepared (parsed and planned once per connection, by its text): for the few hot statements
   * whose text has a handful of shapes, such as a turn's commit. Planning a large statement costs as much as running it.
   */
  prepare?: boolean;
};

export interface Queryable {
  query<T extends Row = Row>(sql: string, params?: readonly unknown[], opts?: QueryOptions): Promise<{ rows: T[]; rowCount: number }>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction (BEGIN/COMMIT, ROLLBACK on throw). */
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Thrown by tx() callbacks to roll back with a value-like reason. */
export class Rollback extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}
