// Defect 8 of issue #14: lone UTF-16 surrogates passed validation and failed in PostgreSQL jsonb: a socket turn got
// "Unexpected error occurred", and /auth/v1/signup with data {"n": "\ud800"} answered 500. They are now refused at
// the edge with a clear error, and nothing is stored.
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

const post = (path: string, body: string, token?: string): Promise<Response> =>
  fetch(`${srv.url}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) } });

describe('defect 8: lone surrogates are refused at the edge', () => {
  it('a socket turn whose transcription holds a lone surrogate gets a clear ERROR_MESSAGE and changes nothing', async () => {
    const api = new Api(srv.url);
    await api.signUp(`surrogate-${randomUUID()}@example.com`, 'a long enough password');
    const run = await api.request<PlayerStory>('POST', '/api/player-stories', { blueprint_story_id: LANTERN });
    const socket = await GameSocket.connect(srv.url, api.token ?? '');
    await socket.send({ player_story_id: run.id, is_starting_dialogue: true });
    await socket.send({ player_story_id: run.id, is_starting_dialogue: true });
    const before = await api.request<PlayerStory>('GET', `/api/player-stories/${run.id}`);
    for (const lone of ['\\ud800', '\\udc00', 'ok \\ud83d then', '\\udfff\\ud800']) {
      const answer = new Promise<string>((r) => socket.raw.once('message', (d: Buffer) => r(d.toString('utf8'))));
      socket.sendRaw(`USER_INPUT\0{"input_id":"${randomUUID()}","player_story_id":"${run.id}","is_starting_dialogue":false,"transcription":"${lone}"}`);
      const text = await answer;
      expect(text.startsWith('ERROR_MESSAGE\0'), text.slice(0, 120)).toBe(true);
      expect(text).not.toContain('Unexpected error occurred');
      expect(text).toMatch(/transcription.*(unpaired|lone) (UTF-16 )?surrogate/i);
    }
    expect(socket.raw.readyState).toBe(WebSocket.OPEN);
    expect((await api.request<PlayerStory>('GET', `/api/player-stories/${run.id}`)).loop_current_number_of_interactions).toBe(before.loop_current_number_of_interactions);
    // A proper pair (an emoji) is fine, and the run goes on.
    const emoji = await socket.send({ player_story_id: run.id, is_starting_dialogue: false, transcription: 'Was it a ghost? \u{1F47B}' });
    expect(emoji.error).toBeNull();
    expect(srv.logs.some((l) => l.includes('"turn failed"'))).toBe(false);
    await socket.close();
  });

  it('POST /auth/v1/signup with data {"n": "\\ud800"} is a 400 validation_failed, not a 500, and creates no account', async () => {
    const email = `lone-${randomUUID()}@example.com`;
    const res = await post('/auth/v1/signup', `{"email":"${email}","password":"a long enough password","data":{"n":"\\ud800"}}`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error_code: string; msg: string };
    expect(body.error_code).toBe('validation_failed');
    expect(body.msg).toMatch(/surrogate/);
    const signIn = await post('/auth/v1/token?grant_type=password', JSON.stringify({ email, password: 'a long enough password' }));
    expect(signIn.status).toBe(400);
  });

  it('any JSON body with a lone surrogate is a 400 naming where it is', async () => {
    const s = await new Api(srv.url).signUp(`lone-api-${randomUUID()}@example.com`, 'a long enough password');
    const res = await post('/api/player-stories', `{"blueprint_story_id":"${LANTERN}","language":"english\\udbff"}`, s.access_token);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('validation_error');
    expect(body.error.message).toMatch(/language.*surrogate/);
    const put = await fetch(`${srv.url}/auth/v1/user`, { method: 'PUT', body: '{"data":{"nick":"a\\udc00b"}}', headers: { 'content-type': 'application/json', authorization: `Bearer ${s.access_token}` } });
    expect(put.status).toBe(400);
  });
});
