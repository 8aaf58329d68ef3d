// Two server processes on one PostgreSQL (the throwaway cluster of tests/setup/postgres.ts, and the Supabase stand-in,
// where local auth lives in looptale_auth beside Supabase Auth's own `auth`): they share the generated signing secret,
// and a session ended through one is refused by the other and announced to its session-end listeners (the WebSocket
// layer's hook). PostgreSQL and the stand-in are required: without them these tests fail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  /** Resolves when B's listeners hear of `sessionId` ending (B polls the database every few seconds). */
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
  });
});
