// Two server processes on one PostgreSQL (the throwaway cluster of tests/setup/postgres.ts, and the Supabase stand-in,
// where local auth lives in looptale_auth beside Supabase Auth's own `auth`): they share the generated signing secret,
// and a session ended through one is refused by the other and announced to its session-end listeners (the WebSocket
// layer's hook). PostgreSQL and the stand-in are required: without them these tests fail.
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { socketUrl } from '../engine/client/api/socket.js';
import { SESSION_END_CHANNEL } from '../server/auth/sessions.js';
import { ageRotatedRefreshTokens, claimsOf, getUserRaw, supabaseClient, uniqueEmail } from './helpers/auth.js';
import { postgresDatabase, supabaseDatabase } from './helpers/databases.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const TARGETS = [
  { name: 'PostgreSQL', database: () => postgresDatabase('auth') },
  { name: 'the Supabase stand-in', database: async () => (await supabaseDatabase('auth')).url },
];

describe.each(TARGETS)('auth across processes on $name', ({ database }) => {
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    const db = await database();
    a = await startTestServer({ DATABASE_URL: db });
    b = await startTestServer({ DATABASE_URL: db });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  /** Resolves when B's listeners hear of `sessionId` ending (B listens for the ends A notifies). */
  function endedOnB(sessionId: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server B never heard that session ${sessionId} ended`)), 20_000);
      const off = b.services.auth!.onSessionEnd((_user, sid, reason) => {
        if (sid !== sessionId) return;
        clearTimeout(timer);
        off();
        resolve(reason);
      });
    });
  }

  describe('two processes', () => {
    it('a token from one process works on the other (one generated secret)', async () => {
      const { data } = await supabaseClient(a.url).auth.signUp({ email: uniqueEmail('pg'), password: 'correct horse battery' });
      expect((await getUserRaw(b.url, data.session!.access_token)).status).toBe(200);
      expect(await b.services.authenticate(data.session!.access_token)).toMatchObject({ id: data.user!.id });
      const refreshed = await supabaseClient(b.url).auth.refreshSession({ refresh_token: data.session!.refresh_token });
      expect(refreshed.error).toBeNull();
    });

    it('signing out through A ends the session on B and tells B’s listeners', async () => {
      const sb = supabaseClient(a.url);
      const { data } = await sb.auth.signUp({ email: uniqueEmail('pg-out'), password: 'correct horse battery' });
      const token = data.session!.access_token;
      const sid = String(claimsOf(token).session_id);
      expect(await b.services.authenticate(token)).not.toBeNull();
      const heard = endedOnB(sid);
      expect((await sb.auth.signOut()).error).toBeNull();
      expect(await heard).toBe('logout');
      expect(await b.services.authenticate(token)).toBeNull();
      expect((await getUserRaw(b.url, token)).body.error_code).toBe('session_not_found');
    });

    it('reusing a rotated refresh token on B ends the session that A rotated', async () => {
      const sb = supabaseClient(a.url);
      const { data } = await sb.auth.signUp({ email: uniqueEmail('pg-reuse'), password: 'correct horse battery' });
      const old = data.session!.refresh_token;
      expect((await sb.auth.refreshSession()).error).toBeNull();
      await ageRotatedRefreshTokens(a.services.db, 11);
      const reuse = await supabaseClient(b.url).auth.refreshSession({ refresh_token: old });
      expect(reuse.error?.code).toBe('refresh_token_already_used');
      expect((await getUserRaw(a.url, (await sb.auth.getSession()).data.session!.access_token)).body.error_code).toBe('session_not_found');
    });

    it('a session signed out through A closes its sockets on B within 1 s (LISTEN/NOTIFY, no polling)', async () => {
      const sb = supabaseClient(a.url);
      const { data } = await sb.auth.signUp({ email: uniqueEmail('pg-ws'), password: 'correct horse battery' });
      const token = data.session!.access_token;
      const ws = new WebSocket(socketUrl(b.url, token));
      await once(ws, 'open');
      const closed = once(ws, 'close').then(([code, reason]) => ({ code: code as number, reason: String(reason as Buffer), at: performance.now() }));
      const t0 = performance.now();
      expect((await sb.auth.signOut()).error).toBeNull();
      const c = await closed;
      const ms = Math.round(c.at - t0);
      console.log(`socket on B closed ${ms} ms after the sign-out request through A was sent`);
      expect({ code: c.code, reason: c.reason }).toEqual({ code: 1008, reason: 'Your session ended: sign in again.' });
      expect(ms).toBeLessThan(1000);
    });

    it('B hears of sessions ended while its LISTEN connection was down, once it is back', async () => {
      const sb = supabaseClient(a.url);
      const { data } = await sb.auth.signUp({ email: uniqueEmail('pg-gap'), password: 'correct horse battery' });
      const sid = String(claimsOf(data.session!.access_token).session_id);
      const heard = endedOnB(sid);
      // Cut every listening connection (A's and B's: they share this database), then sign out at once.
      const admin = a.services.db;
      const cut = await admin.query<{ n: number }>("SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = 'looptale-listen' AND datname = current_database()");
      expect(cut.rows[0]?.n).toBeGreaterThanOrEqual(2);
      expect((await sb.auth.signOut()).error).toBeNull();
      expect(await heard).toBe('logout');
      expect(b.logs.join('')).toContain('the LISTEN connection was lost; reconnecting');
      await expect.poll(() => b.logs.join('').includes('the LISTEN connection is back'), { timeout: 10_000 }).toBe(true);
    });

    it('a stray NOTIFY on the channel signs nobody out (the table is asked)', async () => {
      const { data } = await supabaseClient(a.url).auth.signUp({ email: uniqueEmail('pg-stray'), password: 'correct horse battery' });
      const token = data.session!.access_token;
      const sid = String(claimsOf(token).session_id);
      await a.services.db.query('SELECT pg_notify($1, $2)', [SESSION_END_CHANNEL, JSON.stringify([sid])]);
      await a.services.db.query('SELECT pg_notify($1, $2)', [SESSION_END_CHANNEL, 'not json']);
      // Round trip through B's listener: a real end notified after the stray one arrives after it.
      const other = await supabaseClient(a.url).auth.signUp({ email: uniqueEmail('pg-stray2'), password: 'correct horse battery' });
      const otherSid = String(claimsOf(other.data.session!.access_token).session_id);
      const heard = endedOnB(otherSid);
      const sb2 = supabaseClient(a.url);
      await sb2.auth.setSession({ access_token: other.data.session!.access_token, refresh_token: other.data.session!.refresh_token });
      expect((await sb2.auth.signOut()).error).toBeNull();
      await heard;
      expect(await b.services.authenticate(token)).not.toBeNull();
    });
  });
});
