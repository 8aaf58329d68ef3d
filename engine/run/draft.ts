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
};

type Row = { id: string };

const salts = new Map<string, number[]>();

/** Four words derived from the user and story, mixed into every row id the state creates. */
function idSalt(userId: string, storyId: string): number[] {
  const key = `${userId}\u0000${storyId}`;
  let salt = salts.get(key);
  if (!salt) {
    salt = [0, 1, 2, 3].map((k) => hashSeed(key, 0x9e3779b9 * (k + 1)));
    if (salts.size > 10_000) salts.clear();
    salts.set(key, salt);
  }
  return salt;
}

export class Draft {
  state: GameState;
  readonly effects: Effect[] = [];
  readonly rng: SeededRandom;
  readonly ctx: StepContext;
  /** See StepContext.lean. */
  readonly lean: boolean;
  #iso: string | null = null;

  constructor(state: GameState, ctx: StepContext) {
    this.state = { ...state };
    this.ctx = ctx;
    this.lean = ctx.lean === true;
    this.rng = new SeededRandom(state.rng);
  }

  /** ctx.now as an ISO timestamp, computed once per step when first needed. */
  get iso(): string {
    this.#iso ??= new Date(this.ctx.now).toISOString();
    return this.#iso;
  }

  get story(): Story {
    return this.ctx.story;
  }

  /** Inserts or replaces a row and records it for persistence. */
  put<T extends Row>(table: TableName, row: T): T {
    if (table === 'player_stories') return this.#putRun(row);
    const key = TABLES[table];
    const rows = this.state[key] as unknown as Row[];
    const i = rows.findIndex((r) => r.id === row.id);
    const next = rows.slice();
    if (i < 0) next.push(row);
    else next[i] = row;
    (this.state as Record<string, unknown>)[key] = next;
    if (!this.lean) this.effects.push({ type: 'persist', table, row: row as unknown as Row & Record<string, unknown> });
    return row;
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

  /** Updates a row found by id with a patch; returns the new row. */
  patch<T extends Row>(table: TableName, id: string, patch: Partial<T>): T {
    const rows = (table === 'player_stories' ? (this.state.run ? [this.state.run] : []) : this.state[TABLES[table]]) as unknown as T[];
    const row = rows.find((r) => r.id === id);
    if (!row) throw new Error(`patch: no ${table} row ${id}`);
    return this.put(table, { ...row, ...patch });
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
