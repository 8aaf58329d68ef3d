// U+0000 in text: valid JSON ("\u0000"), but PostgreSQL's text and jsonb cannot hold NUL, so a socket turn saying it
// got "Unexpected error occurred" (found by tests/fuzz-socket-frames.test.ts, FUZZ_SEED=1265365160) and an HTTP body
// holding it reached the store. Like a lone surrogate (defect-08), it is refused at the edge with a clear error, and
// nothing is stored.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlayerStory } from '../engine/schema/player.js';
import { Api, GameSocket } from '../cli/lib/game-client.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const LANTERN = '8b800bd3-b107-4b49-81d1-b7a4b8dcbc5a';
let srv: TestServer;

beforeAll(async () => {
  srv = await startTestServer({ SEED_STORIES: 'true', STORIES_DIR: join(import.meta.dirname, '../fixtures/stories') });
});
afterAll(async () => srv?.close());

const send = (method: string, path: string, body: string, token?: string): Promise<Response> =>
  fetch(`${srv.url}${path}`, { method, body, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) } });

describe('NUL in text is refused at the edge', () => {
  it('a socket turn whose transcription holds NUL gets a clear ERROR_MESSAGE and changes nothing', async () => {
    const api = new Api(srv.url);
    await api.signUp(`nul-${randomUUID()}@example.com`, 'a long enough password');
    const run = await api.request<PlayerStory>('POST', '/api/player-stories', { blueprint_story_id: LANTERN });
    const socket = await GameSocket.connect(srv.url, api.token ?? '');
    await socket.send({ player_story_id: run.id, is_starting_dialogue: true });
    await socket.send({ player_story_id: run.id, is_starting_dialogue: true });
    const before = await api.request<PlayerStory>('GET', `/api/player-stories/${run.id}`);
    for (const text of ['\u0000', 'Was it a \u0000 ghost?']) {
      const r = await socket.send({ player_story_id: run.id, is_starting_dialogue: false, transcription: text });
      expect(r.error).toBe('The USER_INPUT payload has invalid text at transcription: it contains U+0000 (NUL), which text cannot hold.');
    }
    expect(socket.raw.readyState).toBe(WebSocket.OPEN);
    expect((await api.request<PlayerStory>('GET', `/api/player-stories/${run.id}`)).loop_current_number_of_interactions).toBe(before.loop_current_number_of_interactions);
    // Other control characters are text: the turn is played.
    const tab = await socket.send({ player_story_id: run.id, is_starting_dialogue: false, transcription: 'Was it\ta ghost?\u0001' });
    expect(tab.error).toBeNull();
    expect(srv.logs.some((l) => l.includes('"turn failed"'))).toBe(false);
    await socket.close();
  });

  it('signup with data {"n": "\\u0000"} is a 400 validation_failed and creates no account', async () => {
    const email = `nul-${randomUUID()}@example.com`;
    const res = await send('POST', '/auth/v1/signup', `{"email":"${email}","password":"a long enough password","data":{"n":"a\\u0000"}}`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error_code: string; msg: string };
    expect(body.error_code).toBe('validation_failed');
    expect(body.msg).toMatch(/U\+0000/);
    const signIn = await send('POST', '/auth/v1/token?grant_type=password', JSON.stringify({ email, password: 'a long enough password' }));
    expect(signIn.status).toBe(400);
  });

  it('any JSON body holding NUL, in a value or a key, is a 400 naming where it is', async () => {
    const s = await new Api(srv.url).signUp(`nul-api-${randomUUID()}@example.com`, 'a long enough password');
    const res = await send('POST', '/api/player-stories', `{"blueprint_story_id":"${LANTERN}","language":"english\\u0000"}`, s.access_token);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { code: 'validation_error', message: 'Invalid body: language: contains U+0000 (NUL), which text cannot hold.' } });
    const put = await send('PUT', '/auth/v1/user', '{"data":{"ni\\u0000ck":"x"}}', s.access_token);
    expect(put.status).toBe(400);
    const me = await fetch(`${srv.url}/auth/v1/user`, { headers: { authorization: `Bearer ${s.access_token}` } });
    expect(JSON.stringify(await me.json())).not.toContain('ck"');
  });
});
