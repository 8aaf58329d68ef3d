// Defect 4 of issue #14: one user could open any number of sockets, and the message rate limit was per socket: 1,000
// sockets for one user answered 60,000 frames in 1.5 s. Now a user has at most WS_MAX_SOCKETS_PER_USER sockets (a new
// one closes the oldest), WS_USER_RATE_LIMIT messages per 10 s across all of them, and WS_CONNECTS_PER_MINUTE new
// connections a minute.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, GameSocket } from '../cli/lib/game-client.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ WS_MAX_SOCKETS_PER_USER: '3', WS_RATE_LIMIT: '1000', WS_USER_RATE_LIMIT: '20', WS_CONNECTS_PER_MINUTE: '12' });
});
afterAll(async () => srv?.close());

async function user(): Promise<string> {
  return (await new Api(srv.url).signUp(`caps-${randomUUID()}@example.com`, 'a long enough password')).access_token;
}
/** How the socket closes (code 0 when it is still open after 10 s). */
const closed = (s: GameSocket): Promise<{ code: number; reason: string }> => new Promise((resolve) => {
  if (s.raw.readyState === s.raw.CLOSED) return resolve({ code: s.closeInfo?.code ?? 0, reason: s.closeInfo?.reason ?? '' });
  const timer = setTimeout(() => resolve({ code: 0, reason: 'still open after 10 s' }), 10_000);
  s.raw.once('close', (code, reason) => {
    clearTimeout(timer);
    resolve({ code, reason: reason.toString() });
  });
});

describe('defect 4: sockets and messages are capped per user', () => {
  it('keeps at most 3 sockets per user: each new one closes the oldest (1008), other users unaffected', async () => {
    const token = await user();
    const other = await GameSocket.connect(srv.url, await user());
    const sockets: GameSocket[] = [];
    for (let i = 0; i < 6; i++) sockets.push(await GameSocket.connect(srv.url, token));
    const oldest = await Promise.all(sockets.slice(0, 3).map(closed));
    for (const c of oldest) {
      expect(c.code).toBe(1008);
      expect(c.reason).toMatch(/too many (open )?connections/i);
    }
    for (const s of sockets.slice(3)) expect(s.raw.readyState).toBe(s.raw.OPEN);
    expect(other.raw.readyState).toBe(other.raw.OPEN);
    await Promise.all([...sockets.slice(3), other].map((s) => s.close()));
  });

  it("limits a user's messages across all their sockets (20 per 10 s), closing the socket that goes over", async () => {
    const token = await user();
    const sockets = [await GameSocket.connect(srv.url, token), await GameSocket.connect(srv.url, token), await GameSocket.connect(srv.url, token)];
    let answers = 0;
    for (const s of sockets) s.raw.on('message', () => answers++);
    const ends = sockets.map(closed);
    for (let round = 0; round < 10; round++) for (const s of sockets) if (s.raw.readyState === s.raw.OPEN) s.sendRaw('not a frame');
    const first = await Promise.race(ends);
    expect(first.code).toBe(1008);
    expect(first.reason).toMatch(/too many messages/i);
    await new Promise((r) => setTimeout(r, 300));
    expect(answers).toBeLessThanOrEqual(20);
    await Promise.all(sockets.map((s) => s.close()));
  });

  it('refuses a user more than 12 new connections a minute (429 on the upgrade)', async () => {
    const token = await user();
    const statuses: number[] = [];
    for (let i = 0; i < 14; i++) {
      try {
        const s = await GameSocket.connect(srv.url, token);
        statuses.push(101);
        await s.close();
      } catch (e) {
        statuses.push((e as { status: number }).status);
      }
    }
    expect(statuses.slice(0, 12).every((s) => s === 101)).toBe(true);
    expect(statuses.slice(12)).toEqual([429, 429]);
  });
});
