// Local sign-in against the real server with the unmodified supabase-js client: sign-up, password sign-in and its
// errors, getUser, updateUser, refresh-token rotation and reuse detection, sign-out, the access-token claims, and the
// session-end events the WebSocket layer listens to.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionEndReason } from '../server/auth/service.js';
import { ageRotatedRefreshTokens, ANON_KEY, claimsOf, getUserRaw, supabaseClient, uniqueEmail } from './helpers/auth.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const PASSWORD = 'correct horse battery';

let srv: TestServer;
const ended: { userId: string; sessionId: string; reason: SessionEndReason }[] = [];

beforeAll(async () => {
  srv = await startTestServer();
  srv.services.auth!.onSessionEnd((userId, sessionId, reason) => ended.push({ userId, sessionId, reason }));
});
afterAll(async () => {
  await srv.close();
});

async function signedUp(email = uniqueEmail(), password = PASSWORD) {
  const sb = supabaseClient(srv.url);
  const { data, error } = await sb.auth.signUp({ email, password, options: { data: { display_name: 'Ada' } } });
  expect(error).toBeNull();
  return { sb, email, session: data.session!, user: data.user! };
}

describe('sign-up and password sign-in', () => {
  it('signs up and returns a session at once (no email confirmation), the address not yet proved', async () => {
    const email = uniqueEmail();
    const sb = supabaseClient(srv.url);
    const { data, error } = await sb.auth.signUp({ email: email.toUpperCase(), password: PASSWORD, options: { data: { display_name: 'Ada' } } });
    expect(error).toBeNull();
    expect(data.session).not.toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.user?.user_metadata).toEqual({ display_name: 'Ada' });
    expect(data.user?.app_metadata).toEqual({ provider: 'email', providers: ['email'] });
    expect(data.user?.identities?.[0]?.provider).toBe('email');
    expect(data.user?.email_confirmed_at).toBeUndefined();
    const s = data.session!;
    expect(s.token_type).toBe('bearer');
    expect(s.expires_in).toBe(3600);
    expect(s.refresh_token.length).toBeGreaterThan(30);
    const c = claimsOf(s.access_token);
    expect(c).toMatchObject({ sub: data.user!.id, email, role: 'authenticated', aud: 'authenticated', aal: 'aal1', is_anonymous: false });
    expect(typeof c.session_id).toBe('string');
    expect(c.amr).toEqual([{ method: 'password', timestamp: expect.any(Number) as number }]);
    expect((c.exp as number) - (c.iat as number)).toBe(3600);
    expect(s.expires_at).toBe(c.exp);
    // The token works for the rest of the server too.
    expect(await srv.services.authenticate(s.access_token)).toEqual({ id: data.user!.id, email, role: 'authenticated' });
    const v = await srv.services.auth!.verify(s.access_token);
    expect(v?.sessionId).toBe(c.session_id);
    expect(v?.expiresAt).toBe((c.exp as number) * 1000);
  });

  it('refuses a second sign-up with the same email, whatever its case', async () => {
    const { email } = await signedUp();
    const { data, error } = await supabaseClient(srv.url).auth.signUp({ email: email.replace('player', 'PLAYER'), password: PASSWORD });
    expect(error?.message).toBe('User already registered');
    expect(error?.code).toBe('user_already_exists');
    expect(error?.status).toBe(422);
    expect(data.session).toBeNull();
  });

  it('refuses a weak password and a malformed email', async () => {
    const sb = supabaseClient(srv.url);
    const weak = await sb.auth.signUp({ email: uniqueEmail(), password: 'short' });
    expect(weak.error?.name).toBe('AuthWeakPasswordError');
    expect(weak.error?.code).toBe('weak_password');
    expect(weak.error?.message).toBe('Password should be at least 8 characters.');
    const bad = await sb.auth.signUp({ email: 'not-an-email', password: PASSWORD });
    expect(bad.error?.message).toBe('Unable to validate email address: invalid format');
    expect(bad.error?.status).toBe(400);
  });

  it('signs in with the password; a wrong password or unknown email gives "Invalid login credentials"', async () => {
    const { email, user } = await signedUp();
    const sb = supabaseClient(srv.url);
    const ok = await sb.auth.signInWithPassword({ email, password: PASSWORD });
    expect(ok.error).toBeNull();
    expect(ok.data.user?.id).toBe(user.id);
    expect(ok.data.user?.last_sign_in_at).toBeTruthy();
    for (const attempt of [{ email, password: 'wrong password' }, { email: uniqueEmail('nobody'), password: PASSWORD }]) {
      const bad = await supabaseClient(srv.url).auth.signInWithPassword(attempt);
      expect(bad.error?.name).toBe('AuthApiError');
      expect(bad.error?.message).toBe('Invalid login credentials');
      expect(bad.error?.code).toBe('invalid_credentials');
      expect(bad.error?.status).toBe(400);
      expect(bad.data.session).toBeNull();
    }
  });

  it("answers /token errors in GoTrue's shape, with OAuth's error and error_description", async () => {
    const res = await fetch(`${srv.url}/auth/v1/token?grant_type=password`, {
      method: 'POST', headers: { 'content-type': 'application/json', apikey: ANON_KEY }, body: JSON.stringify({ email: uniqueEmail(), password: 'nope nope' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: 400, error_code: 'invalid_credentials', msg: 'Invalid login credentials', error: 'invalid_grant', error_description: 'Invalid login credentials' });
    const unsupported = await fetch(`${srv.url}/auth/v1/token?grant_type=client_credentials`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(unsupported.status).toBe(400);
    expect(await unsupported.json()).toMatchObject({ error_code: 'validation_failed', error: 'unsupported_grant_type' });
    const badJson = await fetch(`${srv.url}/auth/v1/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":' });
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toMatchObject({ code: 400, error_code: 'bad_json' });
    const missing = await fetch(`${srv.url}/auth/v1/nothing-here`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 404, error_code: 'not_found' });
  });

  it('slows down wrong passwords per account and address (tests/signin-backoff.test.ts has the rest)', async () => {
    const { email } = await signedUp();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const { error } = await supabaseClient(srv.url).auth.signInWithPassword({ email, password: `wrong password ${i}` });
      statuses.push(error?.status ?? 200);
      if (error?.status === 429) expect(error.code).toBe('over_request_rate_limit');
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429, 429]);
  });
});

describe('the signed-in user', () => {
  it('getUser returns the user; updateUser changes metadata, and asks the new address to confirm an email change', async () => {
    const { sb, user, email } = await signedUp();
    const got = await sb.auth.getUser();
    expect(got.error).toBeNull();
    expect(got.data.user).toMatchObject({ id: user.id, email, user_metadata: { display_name: 'Ada' } });
    const upd = await sb.auth.updateUser({ data: { favourite_story: 'clockwork', display_name: null } });
    expect(upd.error).toBeNull();
    expect(upd.data.user?.user_metadata).toEqual({ favourite_story: 'clockwork' });
    const newEmail = uniqueEmail('renamed');
    const moved = await sb.auth.updateUser({ email: newEmail });
    expect(moved.error).toBeNull();
    expect(moved.data.user).toMatchObject({ email, new_email: newEmail });
    const taken = await sb.auth.updateUser({ email: (await signedUp()).email });
    expect(taken.error?.code).toBe('email_exists');
  });

  it('changing the password keeps this session, ends the others and rejects the old password', async () => {
    const { sb, email, user } = await signedUp();
    const other = supabaseClient(srv.url);
    const otherSession = (await other.auth.signInWithPassword({ email, password: PASSWORD })).data.session!;
    const same = await sb.auth.updateUser({ password: PASSWORD });
    expect(same.error?.code).toBe('same_password');
    const weak = await sb.auth.updateUser({ password: 'tiny' });
    expect(weak.error?.code).toBe('weak_password');
    const { error } = await sb.auth.updateUser({ password: 'a brand new passphrase' });
    expect(error).toBeNull();
    expect((await sb.auth.getUser()).error).toBeNull();
    const gone = await getUserRaw(srv.url, otherSession.access_token);
    expect(gone.status).toBe(403);
    expect(gone.body.error_code).toBe('session_not_found');
    expect(ended).toContainEqual({ userId: user.id, sessionId: claimsOf(otherSession.access_token).session_id, reason: 'password_change' });
    const refreshed = await other.auth.refreshSession({ refresh_token: otherSession.refresh_token });
    expect(refreshed.error?.code).toBe('refresh_token_not_found');
    expect((await supabaseClient(srv.url).auth.signInWithPassword({ email, password: PASSWORD })).error?.message).toBe('Invalid login credentials');
    expect((await supabaseClient(srv.url).auth.signInWithPassword({ email, password: 'a brand new passphrase' })).error).toBeNull();
  });

  it('GET /user without a token, or with a forged one, is refused', async () => {
    const none = await fetch(`${srv.url}/auth/v1/user`);
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ error_code: 'no_authorization' });
    const { session } = await signedUp();
    const [h, p] = session.access_token.split('.');
    const forged = await getUserRaw(srv.url, `${h}.${p}.${'A'.repeat(43)}`);
    expect(forged.status).toBe(403);
    expect(forged.body.error_code).toBe('bad_jwt');
    expect(await srv.services.authenticate(`${h}.${p}.${'A'.repeat(43)}`)).toBeNull();
    expect(await srv.services.authenticate('anon-key')).toBeNull();
  });
});

describe('refresh tokens', () => {
  it('rotates on refresh; a rotated token presented again after the reuse interval (10 s) ends the whole session', async () => {
    const { sb, user, session } = await signedUp();
    const first = session.refresh_token;
    const r1 = await sb.auth.refreshSession();
    expect(r1.error).toBeNull();
    const second = r1.data.session!;
    expect(second.refresh_token).not.toBe(first);
    expect(claimsOf(second.access_token).session_id).toBe(claimsOf(session.access_token).session_id);
    expect(r1.data.user?.id).toBe(user.id);
    expect((await getUserRaw(srv.url, second.access_token)).status).toBe(200);

    await ageRotatedRefreshTokens(srv.services.db, 11);
    const thief = supabaseClient(srv.url);
    const reuse = await thief.auth.refreshSession({ refresh_token: first });
    expect(reuse.error?.code).toBe('refresh_token_already_used');
    expect(reuse.error?.message).toBe('Invalid Refresh Token: Already Used');
    expect(reuse.data.session).toBeNull();
    // The family is revoked: the newest refresh token and the access token stop working too.
    const after = await supabaseClient(srv.url).auth.refreshSession({ refresh_token: second.refresh_token });
    expect(after.error?.code).toBe('refresh_token_not_found');
    expect((await getUserRaw(srv.url, second.access_token)).body.error_code).toBe('session_not_found');
    expect(ended).toContainEqual({ userId: user.id, sessionId: claimsOf(session.access_token).session_id, reason: 'refresh_token_reuse' });
  });

  it('two tabs refreshing with the same token at once both stay signed in, in the same session', async () => {
    const { session } = await signedUp();
    const sid = claimsOf(session.access_token).session_id;
    const tabs = [supabaseClient(srv.url), supabaseClient(srv.url)];
    const [a, b] = await Promise.all(tabs.map((t) => t.auth.refreshSession({ refresh_token: session.refresh_token })));
    expect([a?.error, b?.error]).toEqual([null, null]);
    const [sa, sb] = [a!.data.session!, b!.data.session!];
    expect(sa.refresh_token).not.toBe(sb.refresh_token);
    expect([claimsOf(sa.access_token).session_id, claimsOf(sb.access_token).session_id]).toEqual([sid, sid]);
    // Each tab goes on refreshing on its own.
    for (const s of [sa, sb]) {
      expect((await getUserRaw(srv.url, s.access_token)).status).toBe(200);
      const next = await supabaseClient(srv.url).auth.refreshSession({ refresh_token: s.refresh_token });
      expect(next.error).toBeNull();
      expect((await getUserRaw(srv.url, next.data.session!.access_token)).status).toBe(200);
    }
    expect(ended.some((e) => e.sessionId === sid)).toBe(false);
  });

  it('a lost response: the token sent again within the interval gets a fresh one, and the session lives on', async () => {
    const { sb, session } = await signedUp();
    const sid = claimsOf(session.access_token).session_id;
    const lost = await supabaseClient(srv.url).auth.refreshSession({ refresh_token: session.refresh_token });
    expect(lost.error).toBeNull();
    await ageRotatedRefreshTokens(srv.services.db, 9);
    const retried = await sb.auth.refreshSession();
    expect(retried.error).toBeNull();
    expect(claimsOf(retried.data.session!.access_token).session_id).toBe(sid);
    expect(retried.data.session!.refresh_token).not.toBe(lost.data.session!.refresh_token);
    expect((await getUserRaw(srv.url, retried.data.session!.access_token)).status).toBe(200);
    // The interval counts from the first rotation and does not slide with each reuse: 2 s more and it is over.
    await ageRotatedRefreshTokens(srv.services.db, 2);
    const late = await supabaseClient(srv.url).auth.refreshSession({ refresh_token: session.refresh_token });
    expect(late.error?.code).toBe('refresh_token_already_used');
    expect((await getUserRaw(srv.url, retried.data.session!.access_token)).body.error_code).toBe('session_not_found');
    expect(ended.some((e) => e.sessionId === sid && e.reason === 'refresh_token_reuse')).toBe(true);
  });

  it('rejects an unknown refresh token', async () => {
    const { error } = await supabaseClient(srv.url).auth.refreshSession({ refresh_token: 'not-a-real-token' });
    expect(error?.code).toBe('refresh_token_not_found');
    expect(error?.status).toBe(400);
  });
});

describe('sign-out', () => {
  it('ends the session: the access token is then rejected by GET /auth/v1/user and the refresh token by /token', async () => {
    const { sb, user, session } = await signedUp();
    expect((await getUserRaw(srv.url, session.access_token)).status).toBe(200);
    const { error } = await sb.auth.signOut();
    expect(error).toBeNull();
    const after = await getUserRaw(srv.url, session.access_token);
    expect(after.status).toBe(403);
    expect(after.body).toEqual({ code: 403, error_code: 'session_not_found', msg: 'Session from session_id claim in JWT does not exist' });
    expect(await srv.services.authenticate(session.access_token)).toBeNull();
    expect((await supabaseClient(srv.url).auth.refreshSession({ refresh_token: session.refresh_token })).error?.code).toBe('refresh_token_not_found');
    expect(ended).toContainEqual({ userId: user.id, sessionId: claimsOf(session.access_token).session_id, reason: 'logout' });
  });

  it("scope 'local' ends only this session, 'others' every other one, 'global' all", async () => {
    const { email } = await signedUp();
    const devices = await Promise.all([0, 1, 2, 3].map(async () => {
      const sb = supabaseClient(srv.url);
      const s = (await sb.auth.signInWithPassword({ email, password: PASSWORD })).data.session!;
      return { sb, s };
    }));
    const alive = async () => Promise.all(devices.map(async (d) => (await getUserRaw(srv.url, d.s.access_token)).status === 200));
    expect((await devices[0]!.sb.auth.signOut({ scope: 'local' })).error).toBeNull();
    expect(await alive()).toEqual([false, true, true, true]);
    expect((await devices[1]!.sb.auth.signOut({ scope: 'others' })).error).toBeNull();
    expect(await alive()).toEqual([false, true, false, false]);
    const again = supabaseClient(srv.url);
    const s5 = (await again.auth.signInWithPassword({ email, password: PASSWORD })).data.session!;
    expect((await devices[1]!.sb.auth.signOut()).error).toBeNull();
    expect(await alive()).toEqual([false, false, false, false]);
    expect((await getUserRaw(srv.url, s5.access_token)).status).toBe(403);
  });
});

describe('settings and keys', () => {
  it('GET /settings and /.well-known/jwks.json', async () => {
    const settings = (await (await fetch(`${srv.url}/auth/v1/settings`)).json()) as Record<string, unknown>;
    expect(settings).toMatchObject({ external: { email: true, google: false, phone: false }, disable_signup: false, mailer_autoconfirm: true });
    expect(await (await fetch(`${srv.url}/auth/v1/.well-known/jwks.json`)).json()).toEqual({ keys: [] });
  });

  it('Google sign-in is refused when GOOGLE_CLIENT_ID is not set', async () => {
    const res = await fetch(`${srv.url}/auth/v1/authorize?provider=google`, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error_code: 'validation_failed', msg: 'Unsupported provider: provider is not enabled' });
  });

  it('keeps the generated signing secret out of the embedded database: DATA_DIR/jwt-secret, 0600 (PostgreSQL: server_settings, shared by its processes)', async () => {
    const r = await srv.services.db.query<{ value: string }>("SELECT value FROM looptale_private.server_settings WHERE key = 'auth.jwt_secret'");
    if (srv.services.db.kind === 'pglite') {
      expect(r.rows).toEqual([]);
      const file = join(srv.config.DATA_DIR, 'jwt-secret');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(readFileSync(file, 'utf8').trim().length).toBeGreaterThanOrEqual(64);
    } else {
      expect(r.rows[0]?.value.length).toBeGreaterThanOrEqual(64);
    }
  });
});

describe('the app-wide request limit on /auth/v1', () => {
  it("answers 429 in GoTrue's shape", async () => {
    const small = await startTestServer({ HTTP_RATE_LIMIT: '3' });
    try {
      const statuses: number[] = [];
      let last: unknown;
      for (let i = 0; i < 4; i++) {
        const res = await fetch(`${small.url}/auth/v1/settings`);
        statuses.push(res.status);
        last = await res.json();
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(last).toMatchObject({ code: 429, error_code: 'over_request_rate_limit' });
      const { error } = await supabaseClient(small.url).auth.signInWithPassword({ email: uniqueEmail(), password: PASSWORD });
      expect(error?.status).toBe(429);
    } finally {
      await small.close();
    }
  });
});
