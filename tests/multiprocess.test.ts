// Several real server processes: idempotent replays across two processes on one PostgreSQL, kill -9 during turns
// then restart with no acknowledged turn lost (PostgreSQL and PGlite), and 100 concurrent redemptions of one ticket.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';

// Each test starts real server processes: slow on a loaded 2-core machine.
vi.setConfig({ testTimeout: 180_000 });
import { parsePlan } from '../engine/story/testplan.js';
import type { PlayerStory } from '../engine/schema/player.js';
import { Api, GameSocket, type TurnResult } from '../cli/lib/game-client.js';
import { runPlanRemote } from '../cli/lib/remote-plan.js';
import { createDatabase } from '../scripts/pg-throwaway.js';
import { spawnServer, type ServerProcess } from './helpers/server-process.js';

const ROOT = join(import.meta.dirname, '../fixtures/stories');
const PASSWORD = 'a long enough password';
const running: ServerProcess[] = [];
let dbUrl = '';

async function lanternId(url: string): Promise<string> {
  const stories = await new Api(url).request<{ id: string; name: string }[]>('GET', '/api/stories');
  const id = stories.find((s) => s.name === 'The Lantern Keeper')?.id;
  if (!id) throw new Error('lantern-keeper not seeded');
  return id;
}

async function start(env: Record<string, string>): Promise<ServerProcess> {
  const s = await spawnServer({ SEED_STORIES: 'true', STORIES_DIR: ROOT, HTTP_RATE_LIMIT: '100000', ...env });
  running.push(s);
  return s;
}

beforeAll(async () => {
  const pg = inject('pgUrl');
  if (!pg) throw new Error(`PostgreSQL is required: ${inject('pgError')}`);
  dbUrl = await createDatabase(pg, 'multi');
});
afterAll(async () => {
  for (const s of running) await s.stop('SIGKILL');
});

describe('two server processes on one PostgreSQL', () => {
  it('a USER_INPUT replayed on the other process gets the same GAME_OUTPUT and changes nothing', async () => {
    const a = await start({ DATABASE_URL: dbUrl });
    const b = await start({ DATABASE_URL: dbUrl });
    const api = new Api(a.url);
    await api.signUp(`two-${randomUUID()}@example.com`, PASSWORD);
    const run = await api.request<PlayerStory>('POST', '/api/player-stories', { blueprint_story_id: await lanternId(a.url), language: 'english' });
    const sa = await GameSocket.connect(a.url, api.token ?? '');
    const sb = await GameSocket.connect(b.url, api.token ?? '');
    await sa.send({ player_story_id: run.id, is_starting_dialogue: true });
    await sa.send({ player_story_id: run.id, is_starting_dialogue: true });
    const input_id = randomUUID();
    const first = await sa.send({ input_id, player_story_id: run.id, is_starting_dialogue: false, transcription: 'When does the light go dark?' });
    const onB = await sb.send({ input_id, player_story_id: run.id, is_starting_dialogue: false, transcription: 'When does the light go dark?' });
    expect(first.error).toBeNull();
    expect(onB.outputs).toEqual(first.outputs);
    // The same input sent to both processes at once runs once.
    const dup = randomUUID();
    const [x, y] = await Promise.all([
      sa.send({ input_id: dup, player_story_id: run.id, is_starting_dialogue: false, transcription: 'Is anything missing?' }),
      sb.send({ input_id: dup, player_story_id: run.id, is_starting_dialogue: false, transcription: 'Is anything missing?' }),
    ]);
    expect(x.outputs).toEqual(y.outputs);
    const row = await new Api(b.url, api.token).request<PlayerStory>('GET', `/api/player-stories/${run.id}`);
    expect(row.loop_current_number_of_interactions).toBe(2);
    await sa.close();
    await sb.close();
    await a.stop();
    await b.stop();
  });

  it('100 concurrent redemptions of one ticket, spread over both processes, create exactly one permanent card', async () => {
    const a = await start({ DATABASE_URL: dbUrl });
    const b = await start({ DATABASE_URL: dbUrl });
    const api = new Api(a.url);
    await api.signUp(`ticket-${randomUUID()}@example.com`, PASSWORD);
    const run = await api.request<PlayerStory>('POST', '/api/player-stories', { blueprint_story_id: await lanternId(a.url), language: 'english' });
    const socket = await GameSocket.connect(a.url, api.token ?? '');
    const plan = parsePlan(readFileSync(join(ROOT, 'lantern-keeper/win.en.testplan'), 'utf8'));
    if (!plan.ok) throw new Error(plan.error);
    const played = await runPlanRemote(api, socket, run.id, plan.steps);
    await socket.close();
    expect(played.failure).toBeNull();
    const tickets = await api.request<{ id: string; is_redeemed: boolean }[]>('GET', '/api/tickets');
    expect(tickets).toHaveLength(1);
    const cards = await api.request<{ enrolled_characters: { character_id: string; character_name: string }[] }>('GET', `/api/player-stories/${run.id}/game-view`);
    const card = cards.enrolled_characters[0];
    if (!card || !tickets[0]) throw new Error('no card or ticket');
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => {
      const target = new Api(i % 2 ? b.url : a.url, api.token);
      return target.request('POST', `/api/tickets/${tickets[0]?.id ?? ''}/redeem`, { card: { kind: 'character', id: card.character_id } })
        .then(() => 'ok', (e: { status?: number }) => `error ${e.status ?? '?'}`);
    }));
    expect(results.filter((r) => r === 'ok')).toHaveLength(1);
    expect(new Set(results.filter((r) => r !== 'ok'))).toEqual(new Set(['error 404']));
    const permanent = await api.request<unknown[]>('GET', '/api/permanent-characters');
    expect(permanent).toHaveLength(1);
    await a.stop();
    await b.stop();
  });
});

describe.each(['postgres', 'pglite'])('kill -9 during turns (%s)', (backend) => {
  it('restarts with every acknowledged turn kept, and none counted twice', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'looptale-kill-'));
    const env: Record<string, string> = backend === 'postgres' ? { DATABASE_URL: await createDatabase(inject('pgUrl'), 'kill') } : { DATA_DIR: dataDir };
    let srv = await start(env);
    const api = new Api(srv.url);
    await api.signUp(`kill-${randomUUID()}@example.com`, PASSWORD);
    const run = await api.request<PlayerStory>('POST', '/api/player-stories', { blueprint_story_id: await lanternId(srv.url), language: 'english' });
    const socket = await GameSocket.connect(srv.url, api.token ?? '');
    await socket.send({ player_story_id: run.id, is_starting_dialogue: true });
    await socket.send({ player_story_id: run.id, is_starting_dialogue: true });
    // Unrecognised lines: each counts one interaction and keeps the moment open.
    const acked: TurnResult[] = [];
    let unacked: string | null = null;
    const killAfter = 6;
    for (let i = 0; i < 20; i++) {
      const input_id = randomUUID();
      if (i === killAfter) {
        // Kill while this turn is in flight.
        const pending = socket.send({ input_id, player_story_id: run.id, is_starting_dialogue: false, transcription: `hmm number ${i}` }, undefined, 5000);
        srv.child.kill('SIGKILL');
        const r = await pending;
        if (r.error || r.outputs.length === 0) unacked = input_id;
        else acked.push(r);
        break;
      }
      const r = await socket.send({ input_id, player_story_id: run.id, is_starting_dialogue: false, transcription: `hmm number ${i}` });
      expect(r.error).toBeNull();
      acked.push(r);
    }
    await srv.stop('SIGKILL');
    srv = await start(env);
    const api2 = new Api(srv.url, api.token);
    const row = await api2.request<PlayerStory>('GET', `/api/player-stories/${run.id}`);
    // Every acknowledged turn is there; the one in flight is there at most once.
    expect(row.loop_current_number_of_interactions).toBeGreaterThanOrEqual(acked.length);
    expect(row.loop_current_number_of_interactions).toBeLessThanOrEqual(acked.length + 1);
    const s2 = await GameSocket.connect(srv.url, api.token ?? '');
    for (const t of acked) {
      const again = await s2.send({ input_id: t.input_id, player_story_id: run.id, is_starting_dialogue: false, transcription: 'replayed' });
      expect(again.outputs).toEqual(t.outputs);
    }
    if (unacked) await s2.send({ input_id: unacked, player_story_id: run.id, is_starting_dialogue: false, transcription: `hmm number ${killAfter}` });
    const after = await api2.request<PlayerStory>('GET', `/api/player-stories/${run.id}`);
    // The turn sent just before the kill is usually unanswered (then sent again here, and counted once). On a busy
    // machine the test process can be descheduled between its send and its kill long enough for the server to answer
    // and commit it first (seen on CI: 7 acknowledged, the old `acked.length + 1` expected 8): then it is acknowledged.
    expect(after.loop_current_number_of_interactions).toBe(acked.length + (unacked ? 1 : 0));
    await s2.close();
    await srv.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
});

describe('SIGTERM', () => {
  it('stops accepting, finishes the turn in flight, closes the database and exits 0', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'looptale-term-'));
    const srv = await start({ DATA_DIR: dataDir });
    const api = new Api(srv.url);
    await api.signUp(`term-${randomUUID()}@example.com`, PASSWORD);
    const run = await api.request<PlayerStory>('POST', '/api/player-stories', { blueprint_story_id: await lanternId(srv.url), language: 'english' });
    const socket = await GameSocket.connect(srv.url, api.token ?? '');
    const inFlight = socket.send({ player_story_id: run.id, is_starting_dialogue: true });
    const code = srv.stop('SIGTERM');
    const answered = await inFlight;
    expect(await code).toBe(0);
    expect(srv.output.join('')).toMatch(/stopping: finishing turns in flight/);
    const again = await start({ DATA_DIR: dataDir });
    const row = await new Api(again.url, api.token).request<PlayerStory>('GET', `/api/player-stories/${run.id}`);
    expect(row.id).toBe(run.id);
    if (answered.outputs.length) expect(answered.outputs[0]?.player_story_id).toBe(run.id);
    await again.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
});
