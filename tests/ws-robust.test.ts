// The WebSocket edge: auth on upgrade, bad frames answered with ERROR_MESSAGE (socket kept open, nothing changed),
// other users' runs, finished runs, the message rate (1008), idempotent replays, duplicates in flight, fuzzing and
// the end of a session.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import fc from 'fast-check';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeFrame } from '../engine/protocol/codec.js';
import type { PlayerStory } from '../engine/schema/player.js';
import { Api, ApiError, GameSocket } from '../cli/lib/game-client.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const ROOT = join(import.meta.dirname, '../fixtures/stories');
const LANTERN = 'a1c0e7d2-0000-4000-8000-000000000000';
let srv: TestServer;
let storyId = LANTERN;

async function player(): Promise<{ api: Api; run: PlayerStory; socket: GameSocket }> {
  const api = new Api(srv.url);
  await api.signUp(`ws-${randomUUID()}@example.com`, 'a long enough password');
  const run = await api.request<PlayerStory>('POST', '/api/player-stories', { blueprint_story_id: storyId, language: 'english' });
  const socket = await GameSocket.connect(srv.url, api.token ?? '');
  return { api, run, socket };
}

/** The next frame on a raw socket, decoded as text when it is an ERROR_MESSAGE. */
function nextMessage(ws: WebSocket): Promise<string> {
  return new Promise((resolve) => ws.once('message', (d: Buffer) => resolve(d.toString('utf8'))));
}

beforeAll(async () => {
  srv = await startTestServer({ SEED_STORIES: 'true', STORIES_DIR: ROOT, WS_RATE_LIMIT: '40' });
  const stories = await new Api(srv.url).request<{ id: string; name: string }[]>('GET', '/api/stories');
  storyId = stories.find((s) => s.name === 'The Lantern Keeper')?.id ?? LANTERN;
});
afterAll(async () => srv?.close());

describe('upgrade', () => {
  it('refuses a missing or invalid token with 401 and no socket, and a foreign Origin with 403', async () => {
    await expect(GameSocket.connect(srv.url, '')).rejects.toMatchObject({ status: 401 });
    await expect(GameSocket.connect(srv.url, 'not-a-token')).rejects.toMatchObject({ status: 401 });
    const { api } = await player();
    await expect(GameSocket.connect(srv.url, api.token ?? '', { origin: 'https://evil.example' })).rejects.toMatchObject({ status: 403 });
    const ok = await GameSocket.connect(srv.url, api.token ?? '', { origin: 'http://localhost:5173' });
    await ok.close();
  });
});

describe('bad input', () => {
  it('answers each bad frame with a clear ERROR_MESSAGE, keeps the socket open and changes nothing', async () => {
    const { api, run, socket } = await player();
    const ws = socket.raw;
    const cases: [string | Uint8Array, RegExp][] = [
      [new Uint8Array([1, 2, 3]), /separator|type/i],
      [new TextEncoder().encode('FOO\0{}'), /Unknown message type 'FOO'/],
      [new TextEncoder().encode('USER_INPUT\0{not json'), /JSON/],
      [new TextEncoder().encode('USER_INPUT\0{"input_id":"x"}'), /input_id|player_story_id/],
      [new TextEncoder().encode('GAME_OUTPUT\0{}'), /server|direction|client/i],
      ['plain text', /./],
      [new Uint8Array(2 * 1024 * 1024 + 10).fill(65), /over the/i],
    ];
    for (const [bytes, re] of cases) {
      const msg = nextMessage(ws);
      socket.sendRaw(bytes);
      const text = await msg;
      expect(text.startsWith('ERROR_MESSAGE\0'), text.slice(0, 80)).toBe(true);
      expect(text.slice('ERROR_MESSAGE\0'.length)).toMatch(re);
    }
    expect(ws.readyState).toBe(WebSocket.OPEN);
    const row = await api.request<PlayerStory>('GET', `/api/player-stories/${run.id}`);
    expect(row.loop_current_number_of_interactions).toBe(0);
    const start = await socket.send({ player_story_id: run.id, is_starting_dialogue: true });
    expect(start.error).toBeNull();
    await socket.close();
  });

  it("refuses another user's run and an unknown run exactly alike", async () => {
    const a = await player();
    const b = await player();
    const other = await b.socket.send({ player_story_id: a.run.id, is_starting_dialogue: true });
    const unknown = await b.socket.send({ player_story_id: randomUUID(), is_starting_dialogue: true });
    expect(other.error).toBe('Unknown player story: it does not exist or is not yours.');
    expect(unknown.error).toBe(other.error);
    await a.socket.close();
    await b.socket.close();
  });

  it('refuses turns on a finished run', async () => {
    const { api, run, socket } = await player();
    await api.request('POST', `/api/player-stories/${run.id}/end`);
    const r = await socket.send({ player_story_id: run.id, is_starting_dialogue: true });
    expect(r.error).toBe('This run is over. Start a new run to play again.');
    await socket.close();
  });

  it('audio without a transcription gets a clear error while no recogniser is configured', async () => {
    const { run, socket } = await player();
    await socket.send({ player_story_id: run.id, is_starting_dialogue: true });
    await socket.send({ player_story_id: run.id, is_starting_dialogue: true });
    const r = await socket.send({ player_story_id: run.id, is_starting_dialogue: false, audio_format: 'wav' }, new Uint8Array(64));
    expect(r.error).toMatch(/recogni|transcription/i);
    await socket.close();
  });

  it('fuzzed frames never break the socket nor change the run', async () => {
    const { api, run, socket } = await player();
    const ws = socket.raw;
    await fc.assert(fc.asyncProperty(fc.oneof(
      fc.uint8Array({ maxLength: 300 }),
      fc.string().map((s) => new TextEncoder().encode(`USER_INPUT\0${s}`)),
      fc.jsonValue().map((j) => new TextEncoder().encode(`USER_INPUT\0${JSON.stringify(j)}`)),
    ), async (bytes) => {
      const msg = nextMessage(ws);
      socket.sendRaw(bytes);
      expect((await msg).startsWith('ERROR_MESSAGE\0')).toBe(true);
    }), { numRuns: 30 });
    expect(ws.readyState).toBe(WebSocket.OPEN);
    const row = await api.request<PlayerStory>('GET', `/api/player-stories/${run.id}`);
    expect(row.loop_current_number_of_interactions).toBe(0);
    await socket.close();
  });
});

describe('idempotency', () => {
  it('a replayed input_id gets the same GAME_OUTPUT and counts once; a duplicate in flight never runs twice', async () => {
    const { api, run, socket } = await player();
    await socket.send({ player_story_id: run.id, is_starting_dialogue: true }); // Monologue
    await socket.send({ player_story_id: run.id, is_starting_dialogue: true }); // the Learn moment
    const input_id = randomUUID();
    const first = await socket.send({ input_id, player_story_id: run.id, is_starting_dialogue: false, transcription: 'Was it a ghost?' });
    const again = await socket.send({ input_id, player_story_id: run.id, is_starting_dialogue: false, transcription: 'something else' });
    expect(again.outputs).toEqual(first.outputs);
    const twin = await GameSocket.connect(srv.url, api.token ?? '');
    const dup = randomUUID();
    const [x, y] = await Promise.all([
      socket.send({ input_id: dup, player_story_id: run.id, is_starting_dialogue: false, transcription: 'Is anything missing?' }),
      twin.send({ input_id: dup, player_story_id: run.id, is_starting_dialogue: false, transcription: 'Is anything missing?' }),
    ]);
    expect(x.outputs).toEqual(y.outputs);
    const row = await api.request<PlayerStory>('GET', `/api/player-stories/${run.id}`);
    expect(row.loop_current_number_of_interactions).toBe(2);
    await twin.close();
    await socket.close();
  });
});

describe('limits and sessions', () => {
  it('closes a client over the message rate with 1008', async () => {
    const { socket } = await player();
    const closed = new Promise<number>((r) => socket.raw.once('close', (code) => r(code)));
    for (let i = 0; i < 60; i++) socket.sendRaw(encodeFrame({ type: 'ERROR_MESSAGE', message: 'x' }));
    expect(await closed).toBe(1008);
  });

  it("closes a user's sockets when their session ends", async () => {
    const { api, socket } = await player();
    const closed = new Promise<number>((r) => socket.raw.once('close', (code) => r(code)));
    await api.request('POST', '/auth/v1/logout');
    expect(await closed).toBe(1008);
    await expect(GameSocket.connect(srv.url, api.token ?? '')).rejects.toBeInstanceOf(ApiError);
  });
});
