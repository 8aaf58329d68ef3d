// A working copy of the state for one step: rows are replaced immutably (the input state is never mutated) and
// every write is recorded as a persist effect, so effects always match the new state exactly.
import { hashSeed, SeededRandom } from '../random.js';
import type { PlayerStory } from '../schema/player.js';
import type { Story } from '../story/format.js';
import type { Effect, TableName } from './effects.js';
import { TABLES } from './effects.js';
import type { GameState } from './state.js';

export type StepContext = {
  /** Milliseconds since the epoch, from the host's clock (or a simulated one). */
  now: number;
  story: Story;
  /**
   * Lean mode (simulation): the same rules and the same next state, without what only a host consumes: no GAME_OUTPUT
   * is built and no effect is recorded. engine/sim/lean.test.ts checks that both modes end in the same state digest.
   */
  lean?: boolean;
  /**
   * The caller gives the state up (a lean simulation, which keeps only the latest state) and no other state shares its
   * arrays, records or rows: the step changes them in place instead of copying what it writes (a row's fields are
   * reassigned, the arrays inside a row are never changed). On a failure the state may be partly changed. Never set by
   * a host.
   */
  mutable?: boolean;
};

type Row = { id: string };
/** The state's arrays and records (what Draft.owned can hand out). */
type OwnedKey = { [K in keyof GameState]: GameState[K] extends readonly unknown[] | Record<string, number> ? K : never }[keyof GameState];

const salts = new Map<string, number[]>();
/** The last salt asked for (a host or a simulation steps one user and story many times in a row). */
let lastSalt: { userId: string; storyId: string; salt: number[] } | null = null;

/** Four words derived from the user and story, mixed into every row id the state creates. */
function idSalt(userId: string, storyId: string): number[] {
  if (lastSalt?.userId === userId && lastSalt.storyId === storyId) return lastSalt.salt;
  const key = `${userId}\u0000${storyId}`;
  let salt = salts.get(key);
  if (!salt) {
    salt = [0, 1, 2, 3].map((k) => hashSeed(key, 0x9e3779b9 * (k + 1)));
    if (salts.size > 10_000) salts.clear();
    salts.set(key, salt);
  }
  lastSalt = { userId, storyId, salt };
  return salt;
}

let lastDay = NaN;
let lastDayIso = '';

/** new Date(ms).toISOString() for years 1970-9999, with the date part computed once per day (a step asks for it often). */
export function isoTime(ms: number): string {
  const day = Math.floor(ms / 86_400_000);
  if (day !== lastDay || !Number.isFinite(ms) || ms < 0 || ms >= 253_402_300_800_000) {
    if (!Number.isFinite(ms) || ms < 0 || ms >= 253_402_300_800_000) return new Date(ms).toISOString();
    lastDay = day;
    lastDayIso = new Date(day * 86_400_000).toISOString().slice(0, 11);
  }
  let t = ms - day * 86_400_000;
  const msPart = t % 1000;
  t = (t - msPart) / 1000;
  const sec = t % 60;
  t = (t - sec) / 60;
  const min = t % 60;
  const hour = (t - min) / 60;
  return `${lastDayIso}${pad2(hour)}:${pad2(min)}:${pad2(sec)}.${msPart < 10 ? '00' : msPart < 100 ? '0' : ''}${msPart}Z`;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : `${n}`;
}

export class Draft {
  state: GameState;
  readonly effects: Effect[] = [];
  readonly rng: SeededRandom;
  readonly ctx: StepContext;
  /** See StepContext.lean. */
  readonly lean: boolean;
  #iso: string | null = null;
  /**
   * Table arrays this draft made (copied on its first write to a table in this step): later writes in the same step
   * change them in place. The input state's arrays are never changed.
   */
  #own: Map<string, unknown> | null = null;
  /** See StepContext.mutable. */
  readonly mutable: boolean;

  constructor(state: GameState, ctx: StepContext) {
    this.mutable = ctx.mutable === true;
    this.state = this.mutable ? state : { ...state };
    this.ctx = ctx;
    this.lean = ctx.lean === true;
    this.rng = new SeededRandom(state.rng);
  }

  /** ctx.now as an ISO timestamp, computed once per step when first needed. */
  get iso(): string {
    this.#iso ??= isoTime(this.ctx.now);
    return this.#iso;
  }

  get story(): Story {
    return this.ctx.story;
  }

  /** Inserts or replaces a row and records it for persistence. */
  put<T extends Row>(table: TableName, row: T): T {
    if (table === 'player_stories') return this.#putRun(row);
    const key = TABLES[table];
    const rows = this.owned(key) as unknown as Row[];
    const id = row.id;
    const n = rows.length;
    let i = 0;
    while (i < n && (rows[i] as Row).id !== id) i++;
    if (i === n) rows.push(row);
    else rows[i] = row;
    if (!this.lean) this.effects.push({ type: 'persist', table, row: row as unknown as Row & Record<string, unknown> });
    return row;
  }

  /**
   * The state's array or record `key`, to change in place: copied on the first call in a step (the input state is never
   * changed), as it is when the state is mutable (StepContext.mutable).
   */
  owned<K extends OwnedKey>(key: K): GameState[K] {
    const v = this.state[key];
    if (this.mutable || this.#own?.get(key) === v) return v;
    const copy = (Array.isArray(v) ? v.slice() : { ...v }) as GameState[K];
    (this.#own ??= new Map()).set(key, copy);
    this.state[key] = copy;
    return copy;
  }

  #putRun<T extends Row>(row: T): T {
    const s = this.state;
    const run = row as unknown as PlayerStory;
    if (s.run && s.run.id !== run.id) {
      // A new run: the latest one becomes history (its row stays in the store).
      const prev = s.run;
      const h = s.history;
      s.history = {
        runs: h.runs + 1,
        best_rank: prev.loop_rank === null ? h.best_rank : h.best_rank === null ? prev.loop_rank : Math.min(h.best_rank, prev.loop_rank),
        successful: h.successful + (prev.is_successful_run ? 1 : 0),
      };
    }
    s.run = run;
    if (!this.lean) this.effects.push({ type: 'persist', table: 'player_stories', row: row as unknown as Row & Record<string, unknown> });
    return row;
  }

  /**
   * The row to change `row` (the current row of its table) through, already put: `row` itself in a mutable step
   * (StepContext.mutable), otherwise a copy put in its place. Assigning fields to it then gives what
   * `put(table, { ...row, ...changes })` gives. Compute new values before: in a mutable step `row` is the row changed.
   */
  edit<T extends Row>(table: TableName, row: T): T {
    if (this.mutable && this.#current(table, row)) {
      if (!this.lean) this.effects.push({ type: 'persist', table, row: row as unknown as Row & Record<string, unknown> });
      return row;
    }
    return this.put(table, { ...row });
  }

  /** `row` with `changes`, put (see edit): `put(table, { ...row, ...changes })`, in place in a mutable step. */
  update<T extends Row>(table: TableName, row: T, changes: Partial<T>): T {
    return Object.assign(this.edit(table, row), changes);
  }

  /** Whether `row` is the very object its table holds for its id (not an older version). */
  #current(table: TableName, row: Row): boolean {
    if (table === 'player_stories') return this.state.run === row;
    const rows = this.state[TABLES[table]] as unknown as Row[];
    const id = row.id;
    // From the end: the row changed is most often the latest one (the current moment).
    for (let i = rows.length - 1; i >= 0; i--) {
      const r = rows[i] as Row;
      if (r === row) return true;
      if (r.id === id) return false;
    }
    return false;
  }

  emit(effect: Effect): void {
    if (!this.lean) this.effects.push(effect);
  }

  #salt: number[] | null = null;

  uuid(): string {
    this.#salt ??= idSalt(this.state.user_id, this.state.story_id);
    return this.rng.uuid(this.#salt);
  }

  finish(): { state: GameState; effects: Effect[] } {
    this.state.rng = this.rng.state;
    return { state: this.state, effects: this.effects };
  }
}
