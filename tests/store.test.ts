// The store against every backend: embedded PGlite (in a temp dir), a real PostgreSQL 15 (the throwaway cluster of
// tests/setup/postgres.ts) and a database set up as a hosted Supabase project is (the stand-in, where the server's role
// `postgres` is no superuser). One suite, run on each. PostgreSQL and the stand-in are required: without them these
// tests fail.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { z } from 'zod';
import { SeededRandom } from '../engine/random.js';
import type { GameEvent } from '../engine/run/events.js';
import { currentMoment, currentRun, initialState, runCount, type GameState } from '../engine/run/state.js';
import { step, type StepResult } from '../engine/run/step.js';
import { gameView } from '../engine/run/views.js';
import type { GameOutput } from '../engine/schema/game-output.js';
import {
  MediaRow, PermanentCharacter, PermanentCharacterItem, PermanentCharacterMedia, PlayerCharacter, PlayerCharacterItem,
  PlayerItem, PlayerMoment, PlayerOpponent, PlayerStory, Ticket,
} from '../engine/schema/player.js';
import { botUtterance } from '../engine/sim/bots.js';
import { scriptedTurn } from '../engine/sim/play-turn.js';
import { stateDigest, type TranscriptLine } from '../engine/sim/transcript.js';
import { Story } from '../engine/story/format.js';
import { createDatabase } from '../scripts/pg-throwaway.js';
import type { Db } from '../server/db/db.js';
import { migrate } from '../server/db/migrate.js';
import { openPglite } from '../server/db/pglite.js';
import { openPostgres } from '../server/db/postgres.js';
import { GameRepo } from '../server/store/game.js';
import { MediaRepo } from '../server/store/media.js';
import { PLAYER_TABLES } from '../server/store/player-tables.js';
import { parseRows } from '../server/store/rows.js';
import { seedStories } from '../server/store/seed.js';
import { getOrCreateSecret } from '../server/store/settings.js';
import { StoryImportError, StoryRepo } from '../server/store/stories.js';
import { TicketRepo } from '../server/store/tickets.js';
import { supabaseDatabase } from './helpers/databases.js';

const ROOT = join(import.meta.dirname, '..');
const STORIES_DIR = join(ROOT, 'fixtures/stories');
const readRaw = (slug: string): unknown => JSON.parse(readFileSync(join(STORIES_DIR, slug, 'story.json'), 'utf8')) as unknown;
const LANTERN_RAW = readRaw('lantern-keeper');
const CLOCKWORK_RAW = readRaw('clockwork-siege');
const LANTERN = Story.parse(LANTERN_RAW);
const CLOCKWORK = Story.parse(CLOCKWORK_RAW);

const tempDirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'looptale-store-'));
  tempDirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of tempDirs) rmSync(d, { recursive: true, force: true });
});

async function postgresUrl(): Promise<string> {
  const url = inject('pgUrl');
  if (!url) throw new Error(`These tests need PostgreSQL 15 (scripts/pg-throwaway.ts): ${inject('pgError')}`);
  return createDatabase(url, 'store');
}

type Backend = { name: string; open: () => Promise<Db> };
const BACKENDS: Backend[] = [
  { name: 'PGlite', open: () => openPglite(tempDir()) },
  { name: 'PostgreSQL', open: async () => openPostgres(await postgresUrl(), 20) },
  { name: 'Supabase', open: async () => openPostgres((await supabaseDatabase('store')).url, 20) },
];

const quietLog = { info: () => undefined, warn: () => undefined };

async function rowsOf<S extends z.ZodType>(db: Db, schema: S, sql: string, params: unknown[]): Promise<z.infer<S>[]> {
  return parseRows(schema, (await db.query(sql, params)).rows, 'test');
}

const byId = <T extends { id: string }>(rows: readonly T[]): T[] => [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

/** One player playing one story through the engine, every step committed through GameRepo. */
class Player {
  state: GameState;
  version: number | null = null;
  now = Date.UTC(2026, 0, 1);
  readonly r: SeededRandom;
  readonly inputs: { input_id: string; outputs: GameOutput[]; version: number }[] = [];
  /** Every run's row as the effects wrote it (the state keeps only the latest run). */
  readonly runs = new Map<string, PlayerStory>();
  #eventIndex = 0;

  constructor(readonly game: GameRepo, readonly userId: string, readonly story: Story, seed: number) {
    this.state = initialState(userId, story.id, seed);
    this.r = new SeededRandom(seed ^ 0x5eed);
  }

  async apply(event: GameEvent, result: StepResult, inputId?: string): Promise<void> {
    if (!result.ok) throw new Error(`${event.type} failed: ${result.error.message}`);
    const before = this.state;
    const run = currentRun(result.state);
    const lines: TranscriptLine[] = [];
    if (event.type === 'run.create' && run) {
      this.#eventIndex = 0;
      lines.push({
        kind: 'header', format: 'looptale-transcript', version: 1, source: 'server', story_id: this.story.id, story_name: this.story.name,
        user_id: this.userId, seed: 0, run_index: runCount(result.state) - 1, initial_state: before,
      });
    }
    lines.push({ kind: 'event', index: this.#eventIndex++, now: this.now, event, outputs: result.outputs, state_digest: stateDigest(result.state) });
    const res = await this.game.commit({
      userId: this.userId, storyId: this.story.id, expectedVersion: this.version, state: result.state, effects: result.effects,
      ...(inputId && run ? { input: { input_id: inputId, player_story_id: run.id, outputs: result.outputs } } : {}),
      ...(run ? { transcript: { player_story_id: run.id, lines } } : {}),
    });
    expect(res).toEqual({ ok: true, version: (this.version ?? 0) + 1 });
    if (!res.ok) return;
    for (const e of result.effects) {
      if (e.type === 'persist' && e.table === 'player_stories') this.runs.set(e.row.id, e.row as unknown as PlayerStory);
      if (e.type === 'reset_progress') for (const [id, r] of this.runs) this.runs.set(id, { ...r, is_successful_run: false });
    }
    this.state = result.state;
    this.version = res.version;
    if (inputId) this.inputs.push({ input_id: inputId, outputs: result.outputs, version: res.version });
  }

  async createRun(reset = false): Promise<void> {
    this.now += 60_000;
    const ev: GameEvent = { type: 'run.create', language: 'english', reset_progress: reset };
    await this.apply(ev, step(this.state, ev, { now: this.now, story: this.story }));
  }

  async playRun(reset = false): Promise<void> {
    await this.createRun(reset);
    await this.playUntil(() => false);
  }

  /** Plays the current run with the optimal bot until `stop` holds or the run is over. */
  async playUntil(stop: (s: GameState) => boolean): Promise<void> {
    for (let turns = 0; turns < 400; turns++) {
      const run = currentRun(this.state);
      if (!run || run.loop_status !== 'loopStatusOnGoing' || stop(this.state)) return;
      const start = !currentMoment(this.state)?.is_started;
      const u = start ? { text: '' } : botUtterance('optimal', this.state, this.story, this.r);
      this.now += 5_000;
      const inputId = this.r.uuid();
      const { event, result } = scriptedTurn(this.state, this.story, {
        input_id: inputId, transcription: u.text, is_starting_dialogue: start,
        ...(u.selected_character_ids ? { selected_character_ids: u.selected_character_ids } : {}),
      }, this.now);
      await this.apply(event, result, inputId);
    }
    throw new Error('the run did not end');
  }

  /** Redeems an unredeemed ticket for the strongest character of the latest run. */
  async redeem(): Promise<boolean> {
    const ticket = this.state.tickets.find((t) => !t.is_redeemed);
    const best = [...this.state.characters].filter((c) => c.card_type !== 'permanent').sort((a, b) => b.current_attack - a.current_attack)[0];
    if (!ticket || !best) return false;
    const ev: GameEvent = { type: 'ticket.redeem', ticket_id: ticket.id, card: { kind: 'character', id: best.id } };
    await this.apply(ev, step(this.state, ev, { now: this.now, story: this.story }));
    return true;
  }
}

describe.each(BACKENDS)('store on $name', ({ open }) => {
  let db: Db;
  let stories: StoryRepo;
  let game: GameRepo;
  let firstMigration: string[] = [];

  beforeAll(async () => {
    db = await open();
    firstMigration = await migrate(db);
    stories = new StoryRepo(db);
    game = new GameRepo(db);
  });
  afterAll(async () => {
    await db?.close();
  });

  describe('schema', () => {
    it('applies the migrations, and applying them again changes nothing', async () => {
      expect(firstMigration).toContain('0001_core.sql');
      expect(await migrate(db)).toEqual([]);
      expect(await migrate(db)).toEqual([]);
    });

    it('gives every player table exactly the fields of its engine row schema', async () => {
      for (const [table, schema] of Object.entries(PLAYER_TABLES)) {
        const r = await db.query<{ column_name: string }>(
          "SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1", [table],
        );
        expect(r.rows.map((c) => c.column_name).sort(), table).toEqual(Object.keys(schema.shape).sort());
      }
    });

    it('has the spec views, the prompt_management schema and server_settings', async () => {
      const views = await db.query<{ table_name: string }>("SELECT table_name FROM information_schema.views WHERE table_schema = 'public' ORDER BY 1");
      expect(views.rows.map((v) => v.table_name)).toEqual(
        expect.arrayContaining(['blueprint_stories_with_ratings_view', 'first_moment_view', 'game_engine_view']),
      );
      const prompts = await db.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'prompt_management' ORDER BY 1",
      );
      expect(prompts.rows.map((t) => t.table_name)).toEqual(['evaluation_runs', 'evaluations', 'prompt_logs', 'prompts']);
      await expect(db.query('SELECT key, value FROM looptale_private.server_settings')).resolves.toBeDefined();
    });
  });

  describe('stories', () => {
    it('imports both fixture stories and exports them exactly as imported', async () => {
      await stories.importStory(LANTERN, LANTERN_RAW);
      await stories.importStory(CLOCKWORK, CLOCKWORK_RAW);
      for (const raw of [LANTERN_RAW, CLOCKWORK_RAW]) {
        const id = (raw as { id: string }).id;
        const exported = await stories.exportStory(id);
        expect(exported).toEqual(raw);
        // Keys come back in the file's order too (story_json is json, which keeps the text as written).
        expect(JSON.stringify(exported)).toBe(JSON.stringify(raw));
        expect(await stories.getStory(id)).toEqual(Story.parse(raw));
      }
      expect(await stories.count()).toBe(2);
      expect(await stories.exportStory('8b800bd3-b107-4b49-81d1-000000000000')).toBeNull();
      expect(await stories.getStory('not-a-uuid')).toBeNull();
    });

    it('replaces a story on re-import and refreshes the cached parsed story', async () => {
      const first = await stories.getStory(LANTERN.id);
      expect(await stories.getStory(LANTERN.id)).toBe(first); // cached
      const renamed = { ...(LANTERN_RAW as Record<string, unknown>), name: 'The Lantern Keeper (draft)' };
      await stories.importStory(Story.parse(renamed), renamed);
      expect((await stories.getStory(LANTERN.id))?.name).toBe('The Lantern Keeper (draft)');
      expect(await stories.storyMoments(LANTERN.id)).toHaveLength(LANTERN.moments.length);
      await stories.importStory(LANTERN, LANTERN_RAW);
      expect(await stories.exportStory(LANTERN.id)).toEqual(LANTERN_RAW);
      expect(await stories.count()).toBe(2);
    });

    it('refuses a story reusing another story\'s ids', async () => {
      const copy = { ...(LANTERN_RAW as Record<string, unknown>), id: '0c0c0c0c-0000-4000-8000-000000000001', name: 'Copy' };
      await expect(stories.importStory(Story.parse(copy), copy)).rejects.toThrow(StoryImportError);
      await expect(stories.importStory(Story.parse(copy), copy)).rejects.toThrow(/already used by story 8b800bd3/);
      expect(await stories.count()).toBe(2);
    });

    it('lists moments in file order, with the spec columns', async () => {
      const moments = await stories.storyMoments(LANTERN.id);
      expect(moments.map((m) => m.id)).toEqual(LANTERN.moments.map((m) => m.id));
      const [m0] = moments;
      const b0 = LANTERN.moments[0];
      expect(m0).toMatchObject({
        blueprint_story_id: LANTERN.id, name: b0?.name.en, moment_type: b0?.type, moment_date: b0?.date,
        transitions: b0?.transitions.map((t) => ({ next_moment_id: t.next_moment_id, label: t.label?.en ?? null })),
      });
      const first = await db.query<{ blueprint_moment_id: string }>('SELECT blueprint_moment_id FROM first_moment_view WHERE blueprint_story_id = $1', [LANTERN.id]);
      expect(first.rows).toEqual([{ blueprint_moment_id: LANTERN.first_moment_id }]);
    });

    it('keeps media rows by story, character, item and place', async () => {
      const media = new MediaRepo(db);
      const all = await media.byStory(CLOCKWORK.id);
      expect(all.characters).toHaveLength(CLOCKWORK.characters.reduce((n, c) => n + c.media.length, 0));
      expect(all.team).toHaveLength(CLOCKWORK.characters.reduce((n, c) => n + c.team_media.length, 0));
      expect(all.items).toHaveLength(CLOCKWORK.items.reduce((n, c) => n + c.media.length, 0));
      expect(all.places).toHaveLength(CLOCKWORK.places.reduce((n, c) => n + c.media.length, 0));
      const withMedia = CLOCKWORK.characters.find((c) => c.media.length > 0);
      expect(withMedia).toBeDefined();
      if (withMedia) {
        const rows = await media.character(withMedia.id, { storyId: CLOCKWORK.id });
        expect(rows[0]).toMatchObject({ media_url: withMedia.media[0]?.url, blueprint_character_id: withMedia.id, blueprint_story_id: CLOCKWORK.id });
      }
      expect(await media.place('nope')).toEqual([]);
    });
  });

  describe('a whole game, committed turn by turn', () => {
    const USER = 'user-alice';
    let alice: Player;
    let aliceClockwork: Player;

    it('lists the catalogue newest first, with user_started for the caller', async () => {
      const list = await stories.listCatalogue(null);
      const expected = [LANTERN, CLOCKWORK].sort((a, b) => (a.catalogue.created_at < b.catalogue.created_at ? 1 : -1)).map((s) => s.id);
      expect(list.map((s) => s.id)).toEqual(expected);
      expect(list.every((s) => !s.user_started)).toBe(true);
      const lantern = list.find((s) => s.id === LANTERN.id);
      expect(lantern).toMatchObject({
        name: LANTERN.name, catalogue_description: LANTERN.catalogue.description.en, sampleImages: LANTERN.catalogue.sample_images,
        genre_tags: LANTERN.catalogue.genre_tags.map((value) => ({ value })), created_at: LANTERN.catalogue.created_at,
      });
      const fixed = await stories.staticCatalogue();
      expect(fixed.stories).toEqual(list);
      expect(Date.parse(fixed.lastUpdated)).toBeGreaterThan(0);
    });

    it('commits a first state for another story (before any golden ticket)', async () => {
      aliceClockwork = new Player(game, USER, CLOCKWORK, 101);
      await aliceClockwork.createRun();
      expect(aliceClockwork.state.permanent_characters).toEqual([]);
    });

    it('plays a run to the end, redeems the golden ticket, then plays two more (the last resetting progress)', async () => {
      alice = new Player(game, USER, LANTERN, 7);
      await alice.playRun();
      expect(alice.state.run?.loop_status).toBe('loopStatusWon');
      expect(await alice.redeem()).toBe(true);
      expect(alice.state.permanent_characters).toHaveLength(1);
      await alice.playRun();
      expect(alice.state.characters.some((c) => c.permanent_character_id !== null)).toBe(true);
      await alice.playRun(true);
      expect(runCount(alice.state)).toBe(3);
      expect(alice.runs.size).toBe(3);
    });

    it('leaves the player_* tables holding the rows of the final state', async () => {
      const s = alice.state;
      const run = currentRun(s);
      if (!run) throw new Error('no run');
      const q = <S extends z.ZodType>(schema: S, sql: string, params: unknown[]): Promise<z.infer<S>[]> => rowsOf(db, schema, sql, params);
      expect(byId(await q(PlayerStory, 'SELECT * FROM player_stories WHERE user_id = $1 AND blueprint_story_id = $2', [USER, LANTERN.id]))).toEqual(byId([...alice.runs.values()]));
      expect(byId(await q(PlayerMoment, 'SELECT * FROM player_moments WHERE player_story_id = $1', [run.id]))).toEqual(byId(s.moments));
      expect(byId(await q(PlayerCharacter, 'SELECT * FROM player_characters WHERE player_story_id = $1', [run.id]))).toEqual(byId(s.characters));
      expect(byId(await q(PlayerItem, 'SELECT * FROM player_items WHERE player_story_id = $1', [run.id]))).toEqual(byId(s.items));
      expect(byId(await q(PlayerCharacterItem, `SELECT l.* FROM player_character_items l JOIN player_characters c ON c.id = l.player_character_id
        WHERE c.player_story_id = $1`, [run.id]))).toEqual(byId(s.character_items));
      expect(byId(await q(PlayerOpponent, `SELECT o.* FROM player_opponents o JOIN player_moments m ON m.id = o.player_moment_id
        WHERE m.player_story_id = $1`, [run.id]))).toEqual(byId(s.opponents));
      expect(byId(await q(MediaRow, 'SELECT * FROM player_character_medias WHERE player_story_id = $1', [run.id]))).toEqual(byId(s.character_media));
      expect(byId(await q(MediaRow, 'SELECT * FROM player_item_medias WHERE player_story_id = $1', [run.id]))).toEqual(byId(s.item_media));
      expect(byId(await q(Ticket, 'SELECT * FROM player_permanent_character_tickets WHERE user_id = $1', [USER]))).toEqual(byId(s.tickets));
      expect(byId(await q(PermanentCharacter, 'SELECT * FROM player_permanent_characters WHERE user_id = $1', [USER]))).toEqual(byId(s.permanent_characters));
      expect(byId(await q(PermanentCharacterItem, 'SELECT * FROM player_permanent_character_items WHERE user_id = $1', [USER]))).toEqual(byId(s.permanent_items));
      expect(byId(await q(PermanentCharacterMedia, 'SELECT * FROM player_permanent_character_medias', []))).toEqual(byId(s.permanent_media));
      const counts = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM looptale_private.processed_inputs WHERE user_id = $1', [USER]);
      expect(counts.rows[0]?.n).toBe(alice.inputs.length);
      // Progress reset: no earlier run is successful, no earlier moment completed.
      const earlier = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM player_moments m JOIN player_stories p ON p.id = m.player_story_id
          WHERE p.user_id = $1 AND p.id <> $2 AND m.completed_at IS NOT NULL`, [USER, run.id],
      );
      expect(earlier.rows[0]?.n).toBe(0);
      const successes = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM player_stories WHERE user_id = $1 AND id <> $2 AND is_successful_run', [USER, run.id]);
      expect(successes.rows[0]?.n).toBe(0);
    });

    it('loads back the same state at the latest version', async () => {
      expect(await game.loadState(USER, LANTERN.id)).toEqual({ state: alice.state, version: alice.version });
      expect(await game.loadState('nobody', LANTERN.id)).toBeNull();
    });

    it('sees a redemption made in another story when loading a state', async () => {
      const loaded = await game.loadState(USER, CLOCKWORK.id);
      expect(loaded?.version).toBe(aliceClockwork.version);
      expect(loaded?.state.permanent_characters).toEqual(alice.state.permanent_characters);
      expect(loaded?.state.permanent_items).toEqual(alice.state.permanent_items);
      expect(loaded?.state.permanent_media).toEqual(alice.state.permanent_media);
      expect(loaded?.state.tickets).toEqual([]);
    });

    it('reads back rows written with the database clock (microseconds, any time zone) exactly as the driver does', async () => {
      // loadState reads tickets and permanent cards as JSON in one statement: their timestamps must come back as the
      // driver's Date columns would (milliseconds, truncated, UTC), or a refreshed state would differ from the tables.
      const card = alice.state.permanent_characters[0];
      if (!card) throw new Error('no permanent character');
      const mediaId = '5e1f0d2a-3b4c-4d5e-8f60-718293a4b5c6';
      const ticketId = '6f2a1e3b-4c5d-4e6f-9a71-8293a4b5c6d7';
      await db.query("SET TIME ZONE 'America/St_Johns'");
      try {
        await db.query("INSERT INTO player_permanent_character_medias (id, player_permanent_character_id, media_url, created_at) VALUES ($1, $2, 'https://example.test/a.png', now() - interval '1.0005789 s')", [mediaId, card.id]);
        await db.query("INSERT INTO player_permanent_character_tickets (id, user_id, blueprint_story_id, is_redeemed, redeemed_at) VALUES ($1, $2, $3, true, now() + interval '0.9999999 s')", [ticketId, USER, CLOCKWORK.id]);
        const loaded = await game.loadState(USER, CLOCKWORK.id);
        const media = await rowsOf(db, PermanentCharacterMedia, 'SELECT * FROM player_permanent_character_medias WHERE id = $1', [mediaId]);
        const tickets = await rowsOf(db, Ticket, 'SELECT * FROM player_permanent_character_tickets WHERE id = $1', [ticketId]);
        expect(media[0]?.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        expect(loaded?.state.permanent_media.find((m) => m.id === mediaId)).toEqual(media[0]);
        expect(loaded?.state.tickets).toEqual(tickets);
      } finally {
        await db.query('DELETE FROM player_permanent_character_medias WHERE id = $1', [mediaId]);
        await db.query('DELETE FROM player_permanent_character_tickets WHERE id = $1', [ticketId]);
        await db.query('RESET TIME ZONE');
      }
    });

    it('serves the game view, the run list, the owner and the transcript of a run', async () => {
      const run = currentRun(alice.state);
      if (!run) throw new Error('no run');
      const view = gameView(alice.state, LANTERN);
      const r = await db.query('SELECT * FROM game_engine_view WHERE player_story_id = $1', [run.id]);
      const row = r.rows[0];
      expect(row).toMatchObject({
        player_story_id: view?.player_story_id, blueprint_moment_id: view?.blueprint_moment_id, moment_type: view?.moment_type,
        loop_number: view?.loop_number, loop_status: view?.loop_status, best_rank: view?.best_rank, is_moment_complete: view?.is_moment_complete,
        loop_current_number_of_interactions: view?.loop_current_number_of_interactions,
      });
      expect((row?.enrolled_characters as unknown[]).length).toBe(view?.enrolled_characters.length);
      expect((row?.player_items as unknown[]).length).toBe(view?.player_items.length);
      // The game screen's fields (0009_game_view_cards.sql): the Assemble size, and each card's picture by card id.
      expect(row?.max_number_of_characters ?? null).toBe(view?.max_number_of_characters);
      expect(row?.card_images).toEqual(view?.card_images);

      const runs = await game.latestRuns(USER, LANTERN.id);
      expect(runs.map((x) => x.loop_number)).toEqual([3, 2, 1]);
      expect(runs[0]).toEqual({
        id: run.id, is_successful_run: run.is_successful_run, loop_rank: run.loop_rank, loop_status: run.loop_status,
        created_at: run.created_at, loop_number: 3,
      });
      expect(await game.playerStoryOwner(run.id)).toEqual({ user_id: USER, blueprint_story_id: LANTERN.id, story_version: null });
      expect(await game.playerStoryOwner('0c0c0c0c-0000-4000-8000-00000000dead')).toBeNull();
      expect(await game.playerStory(run.id)).toEqual(run);

      // The transcript replays through the engine to the same state.
      const lines = await game.transcript(run.id);
      const [header, ...events] = lines;
      if (header?.kind !== 'header') throw new Error('no header');
      let s = header.initial_state;
      for (const e of events) {
        if (e.kind !== 'event') continue;
        const res = step(s, e.event, { now: e.now, story: LANTERN });
        if (!res.ok) throw new Error(res.error.message);
        expect(res.outputs).toEqual(e.outputs);
        s = res.state;
      }
      expect(stateDigest(s)).toBe(stateDigest(alice.state));
      expect(events.map((e) => (e.kind === 'event' ? e.index : -1))).toEqual(events.map((_, i) => i));

      // A spoken turn's line is written once, after its commit, with its speech timings: it joins the end of the
      // run's transcript and nothing else changes.
      const turn = events.findLast((e) => e.kind === 'event' && e.event.type === 'turn');
      if (turn?.kind !== 'event' || turn.event.type !== 'turn') throw new Error('no turn');
      const spoken = { ...turn, stages: { ...turn.stages, tts_first_byte: 42.5, total: 99 } };
      await game.appendTranscript(run.id, [spoken]);
      await game.appendTranscript('not-a-run-id', [spoken]);
      expect(await game.transcript(run.id)).toEqual([...lines, spoken]);
    });

    it('lists the user as having started both stories, and nobody else', async () => {
      const mine = await stories.listCatalogue(USER);
      expect(mine.every((s) => s.user_started)).toBe(true);
      expect((await stories.listCatalogue('user-bob')).some((s) => s.user_started)).toBe(false);
    });

    it('lists tickets with their story and permanent characters with their items and media', async () => {
      const tickets = new TicketRepo(db);
      const list = await tickets.ticketsWithStory(USER);
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({ blueprint_story_id: LANTERN.id, is_redeemed: true, story: { id: LANTERN.id, name: LANTERN.name, story_logo_image: LANTERN.catalogue.story_logo_image } });
      const cards = await tickets.permanentCharacters(USER);
      expect(cards).toHaveLength(1);
      const [card] = cards;
      expect(card?.items).toEqual(alice.state.permanent_items.filter((i) => i.player_permanent_character_id === card?.id));
      expect(card?.media.length).toBe(alice.state.permanent_media.length);
      expect(await tickets.permanentItems(USER)).toEqual([]);
    });

    it('answers a replayed input with its first outputs and changes nothing', async () => {
      const first = alice.inputs[3];
      if (!first) throw new Error('too few inputs');
      const before = await game.loadState(USER, LANTERN.id);
      const storiesBefore = await db.query('SELECT * FROM player_stories WHERE user_id = $1 ORDER BY id', [USER]);
      const changed: GameState = { ...alice.state, line_memory: { replay: 1 } };
      const res = await game.commit({
        userId: USER, storyId: LANTERN.id, expectedVersion: alice.version, state: changed,
        effects: [{ type: 'persist', table: 'player_stories', row: { ...(alice.state.run as PlayerStory), loop_current_number_of_interactions: 0 } }],
        input: { input_id: first.input_id, player_story_id: alice.state.run?.id ?? '', outputs: [] },
      });
      expect(res).toEqual({ ok: false, reason: 'duplicate', outputs: first.outputs });
      expect(await game.findProcessed(USER, first.input_id)).toEqual(first.outputs);
      expect(await game.findProcessed(USER, 'never-sent')).toBeNull();
      expect(await game.loadState(USER, LANTERN.id)).toEqual(before);
      expect((await db.query('SELECT * FROM player_stories WHERE user_id = $1 ORDER BY id', [USER])).rows).toEqual(storiesBefore.rows);
    });

    it('refuses a stale version, or a first commit when a state exists, as a conflict', async () => {
      const before = await game.loadState(USER, LANTERN.id);
      const base = { userId: USER, storyId: LANTERN.id, state: { ...alice.state, line_memory: {} }, effects: [] };
      expect(await game.commit({ ...base, expectedVersion: (alice.version ?? 0) - 1 })).toEqual({ ok: false, reason: 'conflict' });
      expect(await game.commit({ ...base, expectedVersion: null })).toEqual({ ok: false, reason: 'conflict' });
      // A conflicting commit records nothing, not even its input.
      expect(await game.commit({ ...base, expectedVersion: 999, input: { input_id: 'stale-input', player_story_id: '', outputs: [] } }))
        .toEqual({ ok: false, reason: 'conflict' });
      expect(await game.findProcessed(USER, 'stale-input')).toBeNull();
      expect(await game.loadState(USER, LANTERN.id)).toEqual(before);
    });

    it('rolls the whole commit back when the database refuses a row', async () => {
      const before = await game.loadState(USER, LANTERN.id);
      const ticket = alice.state.tickets[0];
      if (!ticket) throw new Error('no ticket');
      // A second ticket for the same user and story.
      const second = { ...ticket, id: '0c0c0c0c-0000-4000-8000-00000000000a', is_redeemed: false, redeemed_at: null };
      await expect(game.commit({
        userId: USER, storyId: LANTERN.id, expectedVersion: alice.version, state: alice.state,
        effects: [{ type: 'persist', table: 'player_permanent_character_tickets', row: second }],
        input: { input_id: 'second-ticket', player_story_id: alice.state.run?.id ?? '', outputs: [] },
      })).rejects.toThrow();
      expect(await game.loadState(USER, LANTERN.id)).toEqual(before);
      expect(await game.findProcessed(USER, 'second-ticket')).toBeNull();
    });

    it('refuses an engine row field its table lacks, and a row id owned by another user', async () => {
      const run = alice.state.run as PlayerStory;
      await expect(game.commit({
        userId: USER, storyId: LANTERN.id, expectedVersion: alice.version, state: alice.state,
        effects: [{ type: 'persist', table: 'player_stories', row: { ...run, not_a_column: 1 } }],
      })).rejects.toThrow(/has no column "not_a_column"/);
      const bob = initialState('user-bob', LANTERN.id, 5);
      await expect(game.commit({
        userId: 'user-bob', storyId: LANTERN.id, expectedVersion: null, state: bob,
        effects: [{ type: 'persist', table: 'player_stories', row: { ...run, user_id: 'user-bob' } }],
      })).rejects.toThrow(/collide/);
      expect(await game.loadState('user-bob', LANTERN.id)).toBeNull();
      expect(await game.playerStory(run.id)).toEqual(run);
    });

    it("serves the game screen's Assemble size and card pictures (opponents' too) as the engine's view does", async () => {
      const momentType = (s: GameState): string | undefined => CLOCKWORK.moments.find((m) => m.id === currentMoment(s)?.blueprint_moment_id)?.type;
      const sqlView = async () => (await db.query('SELECT * FROM game_engine_view WHERE player_story_id = $1', [aliceClockwork.state.run?.id])).rows[0];
      await aliceClockwork.playUntil((s) => momentType(s) === 'Assemble');
      let view = gameView(aliceClockwork.state, CLOCKWORK);
      expect(view?.max_number_of_characters).toBeGreaterThan(0);
      expect(await sqlView()).toMatchObject({ max_number_of_characters: view?.max_number_of_characters, card_images: view?.card_images });
      await aliceClockwork.playUntil((s) => momentType(s) === 'Battle' && s.opponents.some((o) => o.player_moment_id === currentMoment(s)?.id));
      view = gameView(aliceClockwork.state, CLOCKWORK);
      const opponents = aliceClockwork.state.opponents.filter((o) => o.player_moment_id === currentMoment(aliceClockwork.state)?.id);
      expect(opponents.length).toBeGreaterThan(0);
      for (const o of opponents) expect(view?.card_images[o.id]).toBeDefined();
      expect(await sqlView()).toMatchObject({ max_number_of_characters: null, card_images: view?.card_images });
    });
  });

  describe('database constraints', () => {
    const TICKET = '0d0d0d0d-0000-4000-8000-000000000001';
    const insertTicket = (id: string, redeemed = false): Promise<unknown> => db.query(
      `INSERT INTO player_permanent_character_tickets (id, user_id, blueprint_story_id, is_redeemed, redeemed_at, earned_at, earned_in_player_story_id, created_at)
       VALUES ($1, 'user-tix', $2, $3, CASE WHEN $3 THEN now() END, now(), NULL, now())`, [id, LANTERN.id, redeemed],
    );
    const insertPermanent = (id: string): Promise<unknown> => db.query(
      `INSERT INTO player_permanent_characters (id, user_id, blueprint_character_id, name, current_attack, current_health, max_health,
         properties, card_type, source_player_character_id, redeemed_ticket_id, created_at)
       VALUES ($1, 'user-tix', NULL, 'Tix', 1, 1, 1, '[]', 'permanent', NULL, $2, now())`, [id, TICKET],
    );

    it('allows one ticket per user and story', async () => {
      await insertTicket(TICKET);
      await expect(insertTicket('0d0d0d0d-0000-4000-8000-000000000002')).rejects.toThrow(/unique|duplicate/i);
    });

    it('sets redeemed_at exactly when a ticket is redeemed', async () => {
      await expect(db.query('UPDATE player_permanent_character_tickets SET is_redeemed = true WHERE id = $1', [TICKET])).rejects.toThrow(/check/i);
      await expect(db.query('UPDATE player_permanent_character_tickets SET redeemed_at = now() WHERE id = $1', [TICKET])).rejects.toThrow(/check/i);
    });

    it('redeems a ticket once', async () => {
      await db.query('UPDATE player_permanent_character_tickets SET is_redeemed = true, redeemed_at = now() WHERE id = $1', [TICKET]);
      await insertPermanent('0d0d0d0d-0000-4000-8000-0000000000c1');
      await expect(insertPermanent('0d0d0d0d-0000-4000-8000-0000000000c2')).rejects.toThrow(/unique|duplicate/i);
      await expect(db.query(
        `INSERT INTO player_permanent_character_items (id, user_id, player_permanent_character_id, name, description, attack_bonus, defense_bonus,
           properties, rarity, source_blueprint_item_id, source_player_item_id, redeemed_ticket_id, created_at)
         VALUES ('0d0d0d0d-0000-4000-8000-0000000000d1', 'user-tix', NULL, 'Trinket', '', 0, 0, '[]', 'common', NULL, NULL, $1, now())`, [TICKET],
      )).rejects.toThrow(/already redeemed/);
      await expect(db.query("UPDATE player_permanent_character_tickets SET redeemed_at = now() + interval '1 hour' WHERE id = $1", [TICKET]))
        .rejects.toThrow(/already redeemed/);
      await expect(db.query('UPDATE player_permanent_character_tickets SET is_redeemed = false, redeemed_at = NULL WHERE id = $1', [TICKET]))
        .rejects.toThrow(/already redeemed/);
    });

    it('checks ranks, statuses, counts, card types, emotions and intensities', async () => {
      const run = (patch: string): Promise<unknown> => db.query(
        `INSERT INTO player_stories (id, user_id, blueprint_story_id, language, loop_number, loop_rank, loop_status,
           loop_current_number_of_interactions, loop_max_number_of_interactions, created_at)
         SELECT * FROM (VALUES ('0d0d0d0d-0000-4000-8000-0000000000e1'::uuid, 'user-tix', $1::uuid, 'english', 1, 2, 'loopStatusOnGoing', 0, 30, now())) AS v
         ${patch}`, [LANTERN.id],
      );
      await expect(run("UNION ALL SELECT gen_random_uuid(), 'user-tix', $1::uuid, 'english', 2, 8, 'loopStatusOnGoing', 0, 30, now()")).rejects.toThrow(/check/i);
      await expect(run("UNION ALL SELECT gen_random_uuid(), 'user-tix', $1::uuid, 'english', 3, 1, 'won', 0, 30, now()")).rejects.toThrow(/check/i);
      await expect(run("UNION ALL SELECT gen_random_uuid(), 'user-tix', $1::uuid, 'english', 4, 1, 'loopStatusWon', -1, 30, now()")).rejects.toThrow(/check/i);
      await expect(db.query("UPDATE player_permanent_characters SET card_type = 'Golden' WHERE user_id = 'user-tix'")).rejects.toThrow(/check/i);
      await expect(db.query("UPDATE blueprint_moments SET default_emotion = 'boredom' WHERE blueprint_story_id = $1", [LANTERN.id])).rejects.toThrow(/check/i);
      await expect(db.query('UPDATE blueprint_moments SET default_emotion_intensity = 6 WHERE blueprint_story_id = $1', [LANTERN.id])).rejects.toThrow(/check/i);
    });
  });

  it('lets exactly one of 100 concurrent commits on one state version succeed', async () => {
    const racer = new Player(game, 'user-racer', LANTERN, 4242);
    await racer.createRun();
    const base = racer.state;
    const results = await Promise.all(Array.from({ length: 100 }, async (_, i) => {
      const inputId = `race-${i}`;
      const { result } = scriptedTurn(base, LANTERN, { input_id: inputId, transcription: '', is_starting_dialogue: true }, racer.now + 1000 + i);
      if (!result.ok) throw new Error(result.error.message);
      return game.commit({
        userId: 'user-racer', storyId: LANTERN.id, expectedVersion: racer.version, state: result.state, effects: result.effects,
        input: { input_id: inputId, player_story_id: base.run?.id ?? '', outputs: result.outputs },
      });
    }));
    expect(results.filter((r) => r.ok)).toEqual([{ ok: true, version: 2 }]);
    expect(results.filter((r) => !r.ok && r.reason === 'conflict')).toHaveLength(99);
    const processed = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM looptale_private.processed_inputs WHERE user_id = 'user-racer'");
    expect(processed.rows[0]?.n).toBe(1);
    expect((await game.loadState('user-racer', LANTERN.id))?.version).toBe(2);

    // Racing first commits (no state yet): one wins too.
    const fresh = await Promise.all(Array.from({ length: 20 }, () => game.commit({
      userId: 'user-newcomer', storyId: CLOCKWORK.id, expectedVersion: null, state: initialState('user-newcomer', CLOCKWORK.id, 9), effects: [],
    })));
    expect(fresh.filter((r) => r.ok)).toHaveLength(1);
  });

  it('creates a server secret once, whoever asks first', async () => {
    let n = 0;
    const values = await Promise.all(Array.from({ length: 10 }, () => getOrCreateSecret(db, 'test_secret', () => `secret-${n++}`)));
    expect(new Set(values).size).toBe(1);
    expect(await getOrCreateSecret(db, 'test_secret', () => 'other')).toBe(values[0]);
  });

  it('seeds the fixture stories into an empty catalogue, once', async () => {
    const fresh = await open();
    try {
      await migrate(fresh);
      const repo = new StoryRepo(fresh);
      const dir = tempDir();
      for (const slug of ['lantern-keeper', 'broken']) {
        mkdirSync(join(dir, slug));
        writeFileSync(join(dir, slug, 'story.json'), readFileSync(join(STORIES_DIR, slug, 'story.json')));
      }
      mkdirSync(join(dir, 'garbled'));
      writeFileSync(join(dir, 'garbled', 'story.json'), '{ "not": "a story" ');
      mkdirSync(join(dir, 'wrong'));
      writeFileSync(join(dir, 'wrong', 'story.json'), '{ "format_version": 1 }');
      const warnings: string[] = [];
      const log = { info: () => undefined, warn: (_o: object, msg: string) => void warnings.push(msg) };
      expect(await seedStories(repo, dir, log)).toEqual({ imported: [LANTERN.id] });
      expect(warnings).toHaveLength(2);
      expect(await seedStories(repo, dir, log)).toEqual({ imported: [] });
      expect(await repo.count()).toBe(1);
      expect(await seedStories(new StoryRepo(fresh), STORIES_DIR, quietLog)).toEqual({ imported: [] });
    } finally {
      await fresh.close();
    }
  });
});

describe('the fixture stories folder', () => {
  it('seeds both playable stories and skips the broken one', async () => {
    const db = await openPglite(null);
    try {
      await migrate(db);
      const { imported } = await seedStories(new StoryRepo(db), STORIES_DIR, quietLog);
      expect(imported.sort()).toEqual([CLOCKWORK.id, LANTERN.id].sort());
    } finally {
      await db.close();
    }
  });
});
