// Defect 10 of issue #14: an open socket outlived its token (with a 60 s token lifetime a socket still played a turn
// at 75 s). A socket now closes when its access token expires (code 4001), unless the client sends a fresh access
// token over the socket first: `ACCESS_TOKEN\0{"access_token":"<jwt>"}` (the user's own, from a refresh; an invalid
// one is answered with an ERROR_MESSAGE and changes nothing).
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlayerStory } from '../engine/schema/player.js';
import { Api, GameSocket } from '../cli/lib/game-client.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const SECRET = 'a-test-jwt-secret-of-at-least-32-characters';
const LANTERN = '8b800bd3-b107-4b49-81d1-b7a4b8dcbc5a';
let srv: TestServer;

beforeAll(async () => {
  srv = await startTestServer({ JWT_SECRET: SECRET, SEED_STORIES: 'true', STORIES_DIR: join(import.meta.dirname, '../fixtures/stories') });
});
afterAll(async () => srv?.close());

/** The same session's access token, expiring in `seconds` (as if issued earlier with a short lifetime). */
async function expiringIn(token: string, seconds: number): Promise<string> {
  const claims = decodeJwt(token);
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ ...claims, iat: now, exp: now + seconds }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(SECRET));
}
async function player(): Promise<{ api: Api; token: string; run: PlayerStory }> {
  const api = new Api(srv.url);
  const s = await api.signUp(`expiry-${randomUUID()}@example.com`, 'a long enough password');
  const run = await api.request<PlayerStory>('POST', '/api/player-stories', { blueprint_story_id: LANTERN });
  return { api, token: s.access_token, run };
}
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const nextText = (s: GameSocket): Promise<string> => new Promise((r) => s.raw.once('message', (d: Buffer) => r(d.toString('utf8'))));
/** How the socket closes (code 0 when it is still open after `ms`). */
const closing = (s: GameSocket, ms = 10_000): Promise<{ code: number; reason: string }> => new Promise((resolve) => {
  const timer = setTimeout(() => resolve({ code: 0, reason: `still open after ${ms} ms` }), ms);
  s.raw.once('close', (code, reason) => {
    clearTimeout(timer);
    resolve({ code, reason: reason.toString() });
  });
});

describe('defect 10: a socket does not outlive its access token', () => {
  it('closes the socket (4001) when its token expires; no turn is played after that', async () => {
    const p = await player();
    const socket = await GameSocket.connect(srv.url, await expiringIn(p.token, 3));
    expect((await socket.send({ player_story_id: p.run.id, is_starting_dialogue: true })).error).toBeNull();
    const t0 = Date.now();
    const close = await closing(socket);
    expect(close.code).toBe(4001);
    expect(close.reason).toMatch(/expired/i);
    expect(Date.now() - t0).toBeLessThan(4500);
    // A reconnect with the expired token is refused.
    await expect(GameSocket.connect(srv.url, await expiringIn(p.token, -1))).rejects.toMatchObject({ status: 401 });
  });

  it('keeps the socket open past the old expiry when the client sends a fresh token over it', async () => {
    const p = await player();
    const socket = await GameSocket.connect(srv.url, await expiringIn(p.token, 3));
    socket.sendAccessToken(await expiringIn(p.token, 120));
    await sleep(4500);
    expect(socket.raw.readyState).toBe(socket.raw.OPEN);
    expect((await socket.send({ player_story_id: p.run.id, is_starting_dialogue: true })).error).toBeNull();
    await socket.close();
  });

  it("refuses another user's token, a bad token and an expired one (ERROR_MESSAGE), and still closes at the old expiry", async () => {
    const p = await player();
    const stranger = await player();
    const socket = await GameSocket.connect(srv.url, await expiringIn(p.token, 3));
    for (const token of [await expiringIn(stranger.token, 120), 'not-a-token', await expiringIn(p.token, -5)]) {
      const answer = nextText(socket);
      socket.sendRaw(`ACCESS_TOKEN\0${JSON.stringify({ access_token: token })}`);
      const text = await answer;
      expect(text.startsWith('ERROR_MESSAGE\0'), text).toBe(true);
      expect(text).toMatch(/access token/i);
    }
    expect((await closing(socket)).code).toBe(4001);
  });
});
