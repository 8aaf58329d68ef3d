// The game's store: one user's GameState per story (a versioned snapshot) plus the player_* rows the engine's
// effects describe, written together in one transaction with the input that caused them, so a turn is applied
// entirely or not at all, once.
import { z } from 'zod';
import type { Effect } from '../../engine/run/effects.js';
import { GameState } from '../../engine/run/state.js';
import { GameOutput } from '../../engine/schema/game-output.js';
import { PermanentCharacter, PermanentCharacterItem, PermanentCharacterMedia, PlayerStory, Ticket } from '../../engine/schema/player.js';
import { TranscriptLine } from '../../engine/sim/transcript.js';
import { Rollback, type Db, type Queryable, type Row } from '../db/db.js';
import { byKeySet, recordsSql, writeRecords } from './records.js';
import { checkRowFields } from './player-tables.js';
import { isUuid, json, jsonRows, parseRows } from './rows.js';
import type { CommitRequest, CommitResult, RunOwner } from '../game/ports.js';

export const RunSummaryRow = z.object({
  id: z.string(),
  is_successful_run: z.boolean(),
  loop_rank: z.number().int().nullable(),
  loop_status: PlayerStory.shape.loop_status,
  created_at: z.string(),
  loop_number: z.number().int(),
});
export type RunSummaryRow = z.infer<typeof RunSummaryRow>;

/** Rolls the commit transaction back with the result to return. */
class Abort extends Rollback {
  constructor(readonly result: Exclude<CommitResult, { ok: true }>) {
    super(result.reason);
  }
}

type Write =
  | { kind: 'rows'; table: string; records: Record<string, unknown>[] }
  | { kind: 'reset'; user_id: string; blueprint_story_id: string };

/**
 * The effects as writes: persisted rows grouped by table (the last version of a row wins), in segments split at each
 * reset_progress so that a reset sees the rows written before it and not those after. Checked before any SQL runs.
 */
function plan(effects: readonly Effect[]): Write[] {
  const writes: Write[] = [];
  let segment = new Map<string, Map<string, Record<string, unknown>>>();
  const flush = (): void => {
    for (const [table, rows] of segment) for (const records of byKeySet([...rows.values()])) writes.push({ kind: 'rows', table, records });
    segment = new Map();
  };
  for (const e of effects) {
    if (e.type === 'persist') {
      checkRowFields(e.table, e.row);
      let rows = segment.get(e.table);
      if (!rows) {
        rows = new Map<string, Record<string, unknown>>();
        segment.set(e.table, rows);
      }
      rows.set(e.row.id, e.row);
    } else if (e.type === 'reset_progress') {
      flush();
      writes.push({ kind: 'reset', user_id: e.user_id, blueprint_story_id: e.blueprint_story_id });
    }
  }
  flush();
  return writes;
}

/** Rows of the database in the snapshot's order, new ones (created elsewhere) after them; gone ones dropped. */
function refresh<T extends { id: string }>(snapshot: readonly T[], stored: readonly T[]): T[] {
  const byId = new Map(stored.map((r) => [r.id, r]));
  const out: T[] = [];
  for (const r of snapshot) {
    const s = byId.get(r.id);
    if (s) {
      out.push(s);
      byId.delete(r.id);
    }
  }
  return [...out, ...byId.values()];
}

const LOAD_SQL = 'SELECT state, version FROM looptale_private.player_story_states WHERE user_id = $1 AND blueprint_story_id = $2';

/**
 * The state with this story's tickets and the user's permanent cards, items and media, in one statement (#12: a run's
 * creation read them in five calls, each parsed and planned again, through PGlite's one worker, which the turns of
 * every other player wait behind). Each list is a JSON array of whole rows, in the order the tables give them.
 */
const LOAD_REFRESHED_SQL = `SELECT s.state, s.version,
  (SELECT coalesce(json_agg(t ORDER BY t.created_at, t.id), '[]') FROM player_permanent_character_tickets t
    WHERE t.user_id = $1 AND t.blueprint_story_id = $2) AS tickets,
  (SELECT coalesce(json_agg(c ORDER BY c.created_at, c.id), '[]') FROM player_permanent_characters c WHERE c.user_id = $1) AS characters,
  (SELECT coalesce(json_agg(i ORDER BY i.created_at, i.id), '[]') FROM player_permanent_character_items i WHERE i.user_id = $1) AS items,
  (SELECT coalesce(json_agg(m ORDER BY m.created_at, m.id), '[]') FROM player_permanent_character_medias m
    JOIN player_permanent_characters pc ON pc.id = m.player_permanent_character_id WHERE pc.user_id = $1) AS media
  FROM looptale_private.player_story_states s WHERE s.user_id = $1 AND s.blueprint_story_id = $2`;

export class GameRepo {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  /**
   * The user's state for a story and its version, or null. `refresh` (default true) re-reads the user's permanent
   * cards (every story: they change when a ticket is redeemed in another story's state) and this story's tickets, so
   * a redemption made elsewhere is seen; a plain turn does not need them and skips that part.
   */
  async loadState(userId: string, storyId: string, opts: { refresh?: boolean } = {}): Promise<{ state: GameState; version: number } | null> {
    if (!isUuid(storyId)) return null;
    const fresh = opts.refresh !== false;
    const r = await this.#db.query<{ state: unknown; version: string | number } & Partial<Record<'tickets' | 'characters' | 'items' | 'media', Row[]>>>(
      fresh ? LOAD_REFRESHED_SQL : LOAD_SQL, [userId, storyId], fresh ? { prepare: true } : {},
    );
    const row = r.rows[0];
    if (!row) return null;
    const parsed = GameState.safeParse(row.state);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`store: the saved state of ${userId} in story ${storyId} does not parse (${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid'})`);
    }
    const state = parsed.data;
    if (!fresh) return { state, version: Number(row.version) };
    state.tickets = refresh(state.tickets, parseRows(Ticket, jsonRows(row.tickets, ['redeemed_at', 'earned_at', 'created_at']), 'ticket'));
    state.permanent_characters = refresh(state.permanent_characters, parseRows(PermanentCharacter, jsonRows(row.characters, ['created_at']), 'permanent character'));
    state.permanent_items = refresh(state.permanent_items, parseRows(PermanentCharacterItem, jsonRows(row.items, ['created_at']), 'permanent item'));
    state.permanent_media = refresh(state.permanent_media, parseRows(PermanentCharacterMedia, jsonRows(row.media, ['created_at']), 'permanent media'));
    return { state, version: Number(row.version) };
  }

  /**
   * Applies one engine step in one transaction: the input is recorded (a replayed input id rolls back and returns
   * the first outputs), the state snapshot moves from expectedVersion to the next version (anything else is a
   * conflict), every persist effect is upserted, reset_progress applied, transcript lines appended.
   */
  async commit(c: CommitRequest): Promise<CommitResult> {
    const writes = plan(c.effects);
    // A progress reset must see the rows written before it and not those after: statement by statement. Everything
    // else (every turn) is one statement.
    if (!writes.some((w) => w.kind === 'reset')) return this.#commitOne(c, writes as Extract<Write, { kind: 'rows' }>[]);
    try {
      return await this.#db.tx(async (q) => {
        if (c.input) {
          const ins = await q.query(
            `INSERT INTO looptale_private.processed_inputs (user_id, input_id, player_story_id, outputs) VALUES ($1, $2, $3, $4::text::jsonb)
             ON CONFLICT (user_id, input_id) DO NOTHING RETURNING input_id`,
            [c.userId, c.input.input_id, isUuid(c.input.player_story_id) ? c.input.player_story_id : null, json(c.input.outputs)],
          );
          if (ins.rows.length === 0) throw new Abort({ ok: false, reason: 'duplicate', outputs: (await this.#processed(q, c.userId, c.input.input_id)) ?? [] });
        }
        const version = await this.#writeState(q, c);
        for (const w of writes) {
          if (w.kind === 'rows') await writeRecords(q, w.table, w.records, 'upsert', 'user_id');
          else await this.#resetProgress(q, w.user_id, w.blueprint_story_id);
        }
        if (c.transcript && c.transcript.lines.length > 0) await this.#appendTranscript(q, c.transcript.player_story_id, c.transcript.lines);
        if (c.runVersion) {
          await q.query('INSERT INTO looptale_private.run_versions (player_story_id, story_version) VALUES ($1, $2) ON CONFLICT DO NOTHING',
            [c.runVersion.player_story_id, c.runVersion.story_version]);
        }
        return { ok: true as const, version };
      });
    } catch (e) {
      if (e instanceof Abort) return e.result;
      throw e;
    }
  }

  /**
   * The commit as ONE statement (one round trip, atomic without BEGIN/COMMIT): data-modifying WITH clauses, each
   * conditional on the one before: the input recorded, then the state moved from expectedVersion, then the rows and
   * the transcript. A duplicate input writes nothing. A version conflict after the input was recorded, or an owner
   * collision, must undo what the statement wrote: the final SELECT then fails on purpose (division by zero for a
   * conflict, a logarithm of zero for a collision), which aborts the whole statement, and the error says which.
   */
  async #commitOne(c: CommitRequest, writes: readonly Extract<Write, { kind: 'rows' }>[]): Promise<CommitResult> {
    const params: unknown[] = [];
    const p = (v: unknown): string => `$${params.push(v)}`;
    const ctes: string[] = [];
    const out: string[] = [];
    if (c.input) {
      ctes.push(`ins AS (INSERT INTO looptale_private.processed_inputs (user_id, input_id, player_story_id, outputs)
        VALUES (${p(c.userId)}, ${p(c.input.input_id)}, ${p(isUuid(c.input.player_story_id) ? c.input.player_story_id : null)}::uuid, ${p(json(c.input.outputs))}::text::jsonb)
        ON CONFLICT (user_id, input_id) DO NOTHING RETURNING 1)`);
      out.push('(SELECT count(*) FROM ins)::int AS inserted');
    }
    const afterInput = c.input ? ' AND EXISTS (SELECT 1 FROM ins)' : '';
    const user = p(c.userId);
    const story = p(c.storyId);
    const state = p(c.stateJson ?? json(c.state));
    ctes.push(c.expectedVersion === null
      ? `st AS (INSERT INTO looptale_private.player_story_states (user_id, blueprint_story_id, state, version)
          SELECT ${user}, ${story}::uuid, ${state}::text::json, 1 WHERE true${afterInput}
          ON CONFLICT (user_id, blueprint_story_id) DO NOTHING RETURNING version)`
      : `st AS (UPDATE looptale_private.player_story_states SET state = ${state}::text::json, version = version + 1, updated_at = now()
          WHERE user_id = ${user} AND blueprint_story_id = ${story}::uuid AND version = ${p(c.expectedVersion)}${afterInput} RETURNING version)`);
    out.push('(SELECT version FROM st) AS version');
    if (c.input) out.push('CASE WHEN EXISTS (SELECT 1 FROM ins) AND NOT EXISTS (SELECT 1 FROM st) THEN 1 / (SELECT count(*)::int FROM st) END AS conflict_guard');
    const guards: string[] = [];
    writes.forEach((w, i) => {
      const first = w.records[0];
      if (!first) return;
      const name = `w${i}`;
      const r = recordsSql(w.table, Object.keys(first), p(JSON.stringify(w.records)), 'upsert', 'user_id', 'EXISTS (SELECT 1 FROM st)');
      ctes.push(`${name} AS (${r.sql}${r.guarded ? '' : ' RETURNING 1'})`);
      if (r.guarded) guards.push(`(SELECT count(*) FROM ${name}) <> ${w.records.length}`);
    });
    if (guards.length > 0) out.push(`CASE WHEN EXISTS (SELECT 1 FROM st) AND (${guards.join(' OR ')}) THEN ln((SELECT count(*) FROM st) * 0) END AS owner_guard`);
    if (c.transcript && c.transcript.lines.length > 0) {
      const run = p(c.transcript.player_story_id);
      ctes.push(`tr AS (INSERT INTO looptale_private.player_story_transcripts (player_story_id, seq, line)
        SELECT ${run}::uuid, base.n + t.ord::int - 1, t.value
          FROM json_array_elements(${p(json(c.transcript.lines))}::text::json) WITH ORDINALITY AS t(value, ord),
               (SELECT COALESCE(max(seq) + 1, 0) AS n FROM looptale_private.player_story_transcripts WHERE player_story_id = ${run}::uuid) AS base
         WHERE EXISTS (SELECT 1 FROM st) RETURNING 1)`);
    }
    if (c.runVersion) {
      ctes.push(`rv AS (INSERT INTO looptale_private.run_versions (player_story_id, story_version)
        SELECT ${p(c.runVersion.player_story_id)}::uuid, ${p(c.runVersion.story_version)}::int WHERE EXISTS (SELECT 1 FROM st)
        ON CONFLICT DO NOTHING RETURNING 1)`);
    }
    const sql = `WITH ${ctes.join(',\n')}\nSELECT ${out.join(', ')}`;
    let row: Record<string, unknown>;
    try {
      row = (await this.#db.query(sql, params, { prepare: true })).rows[0] ?? {};
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      if (code === '22012') return { ok: false, reason: 'conflict' };
      if (code === '2201E') throw new Error('store: row id(s) of this step collide with rows of another user_id', { cause: e });
      throw e;
    }
    if (c.input && Number(row.inserted) === 0) return { ok: false, reason: 'duplicate', outputs: (await this.#processed(this.#db, c.userId, c.input.input_id)) ?? [] };
    if (row.version === null || row.version === undefined) return { ok: false, reason: 'conflict' };
    return { ok: true, version: Number(row.version) };
  }

  async #writeState(q: Queryable, c: CommitRequest): Promise<number> {
    if (c.expectedVersion === null) {
      const r = await q.query(
        `INSERT INTO looptale_private.player_story_states (user_id, blueprint_story_id, state, version) VALUES ($1, $2, $3::text::json, 1)
         ON CONFLICT (user_id, blueprint_story_id) DO NOTHING RETURNING version`,
        [c.userId, c.storyId, c.stateJson ?? json(c.state)],
      );
      if (r.rows.length === 0) throw new Abort({ ok: false, reason: 'conflict' });
      return 1;
    }
    // Under concurrent commits the row lock serialises them; the losers re-check the version and update nothing.
    const r = await q.query<{ version: string | number }>(
      `UPDATE looptale_private.player_story_states SET state = $3::text::json, version = version + 1, updated_at = now()
        WHERE user_id = $1 AND blueprint_story_id = $2 AND version = $4 RETURNING version`,
      [c.userId, c.storyId, c.stateJson ?? json(c.state), c.expectedVersion],
    );
    const row = r.rows[0];
    if (!row) throw new Abort({ ok: false, reason: 'conflict' });
    return Number(row.version);
  }

  /** Progress reset (accounts spec §4 step 3): moment completions and successful runs of this user's runs are cleared. */
  async #resetProgress(q: Queryable, userId: string, storyId: string): Promise<void> {
    await q.query(
      `UPDATE player_moments SET completed_at = NULL
        WHERE user_id = $1 AND completed_at IS NOT NULL
          AND player_story_id IN (SELECT id FROM player_stories WHERE user_id = $1 AND blueprint_story_id = $2)`,
      [userId, storyId],
    );
    await q.query(
      'UPDATE player_stories SET is_successful_run = false WHERE user_id = $1 AND blueprint_story_id = $2 AND is_successful_run',
      [userId, storyId],
    );
  }

  async #processed(q: Queryable, userId: string, inputId: string): Promise<GameOutput[] | null> {
    const r = await q.query<{ outputs: unknown }>('SELECT outputs FROM looptale_private.processed_inputs WHERE user_id = $1 AND input_id = $2', [userId, inputId]);
    const row = r.rows[0];
    return row ? z.array(GameOutput).parse(row.outputs) : null;
  }

  /** The outputs of an input already processed for this user, or null. */
  findProcessed(userId: string, inputId: string): Promise<GameOutput[] | null> {
    return this.#processed(this.#db, userId, inputId);
  }

  async playerStoryOwner(playerStoryId: string): Promise<RunOwner | null> {
    if (!isUuid(playerStoryId)) return null;
    const r = await this.#db.query<{ user_id: string; blueprint_story_id: string; story_version: number | null }>(
      `SELECT p.user_id, p.blueprint_story_id::text, v.story_version
         FROM player_stories p LEFT JOIN looptale_private.run_versions v ON v.player_story_id = p.id WHERE p.id = $1`, [playerStoryId],
    );
    const row = r.rows[0];
    return row ? { user_id: row.user_id, blueprint_story_id: row.blueprint_story_id, story_version: row.story_version === null ? null : Number(row.story_version) } : null;
  }

  async playerStory(id: string): Promise<PlayerStory | null> {
    if (!isUuid(id)) return null;
    const r = await this.#db.query('SELECT * FROM player_stories WHERE id = $1', [id]);
    return parseRows(PlayerStory, r.rows, 'player_stories')[0] ?? null;
  }

  /** The run's transcript lines in order. */
  async transcript(playerStoryId: string): Promise<TranscriptLine[]> {
    if (!isUuid(playerStoryId)) return [];
    const r = await this.#db.query<{ line: unknown }>('SELECT line FROM looptale_private.player_story_transcripts WHERE player_story_id = $1 ORDER BY seq', [playerStoryId]);
    return r.rows.map((row) => TranscriptLine.parse(row.line));
  }

  /** Appends lines after the run's last one (a spoken turn's line, written once its timings are known). */
  async appendTranscript(playerStoryId: string, lines: readonly TranscriptLine[]): Promise<void> {
    if (!isUuid(playerStoryId) || lines.length === 0) return;
    await this.#appendTranscript(this.#db, playerStoryId, lines);
  }

  /**
   * Fills in a spoken turn's line: its commit wrote it without the speech timings, in its place; this replaces it
   * with the same line and its stages. Nothing happens when the line is not there.
   */
  async completeTranscriptLine(playerStoryId: string, line: TranscriptLine): Promise<void> {
    if (!isUuid(playerStoryId) || line.kind !== 'event' || line.event.type !== 'turn') return;
    await this.#db.query(
      `UPDATE looptale_private.player_story_transcripts SET line = $3::text::json
        WHERE player_story_id = $1::uuid AND line->>'kind' = 'event' AND line->'event'->>'input_id' = $2`,
      [playerStoryId, line.event.input_id, json(line)],
    );
  }

  async #appendTranscript(q: Queryable, playerStoryId: string, lines: readonly TranscriptLine[]): Promise<void> {
    await q.query(
      `INSERT INTO looptale_private.player_story_transcripts (player_story_id, seq, line)
       SELECT $1::uuid, base.n + t.ord::int - 1, t.value
         FROM json_array_elements($2::text::json) WITH ORDINALITY AS t(value, ord),
              (SELECT COALESCE(max(seq) + 1, 0) AS n FROM looptale_private.player_story_transcripts WHERE player_story_id = $1::uuid) AS base`,
      [playerStoryId, json(lines)],
    );
  }

  /** The user's runs of a story for the launch screen, newest first. */
  async latestRuns(userId: string, storyId: string, limit = 20): Promise<RunSummaryRow[]> {
    if (!isUuid(storyId)) return [];
    const r = await this.#db.query(
      `SELECT id, is_successful_run, loop_rank, loop_status, created_at, loop_number FROM player_stories
        WHERE user_id = $1 AND blueprint_story_id = $2 ORDER BY created_at DESC, loop_number DESC LIMIT $3`,
      [userId, storyId, limit],
    );
    return parseRows(RunSummaryRow, r.rows, 'player_stories');
  }
}
