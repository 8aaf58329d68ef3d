// AUTH_PROVIDER=supabase: no local sign-up (/auth/v1 answers 404 saying Supabase handles auth), and access tokens of a
// Supabase project are accepted: HS256 with SUPABASE_JWT_SECRET, or asymmetric keys from SUPABASE_JWKS_URL.
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueInvitation } from '../server/auth/waitlist.js';
import { supabaseClient } from './helpers/auth.js';
import { startTestOidc, type TestOidc } from './helpers/oidc.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';

function supabaseToken(claims: Record<string, unknown>, secret = SECRET, expiresIn = '1h'): Promise<string> {
  return new SignJWT({ aud: 'authenticated', role: 'authenticated', ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer('https://project-ref.supabase.co/auth/v1')
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(new TextEncoder().encode(secret));
}

describe('AUTH_PROVIDER=supabase with SUPABASE_JWT_SECRET', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ AUTH_PROVIDER: 'supabase', SUPABASE_JWT_SECRET: SECRET });
  });
  afterAll(async () => {
    await srv.close();
  });

  it('accepts a token signed with the project secret', async () => {
    const id = randomUUID();
    const token = await supabaseToken({ sub: id, email: 'Fan@Example.com' });
    expect(await srv.services.authenticate(token)).toEqual({ id, email: 'fan@example.com', role: 'authenticated' });
    expect(srv.services.auth?.provider).toBe('supabase');
    expect((await srv.services.auth!.verify(token))?.sessionId).toBeNull();
    // Nothing is written for it: no local user row (Supabase's own `auth` tables are Supabase's).
    const rows = await srv.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM looptale_auth.users');
    expect(rows.rows[0]?.n).toBe(0);
    // And the HTTP layer signs the request in with it.
    const invite = await issueInvitation(srv.services.db, 'fan@example.com');
    const res = await fetch(`${srv.url}/marketing/waitlist_redeem`, {
      method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'fan@example.com', invite_token: invite }),
    });
    expect(res.status).toBe(201);
  });

  it('rejects a wrong signature, an expired token, the anon key and another audience', async () => {
    const sub = randomUUID();
    expect(await srv.services.authenticate(await supabaseToken({ sub }, 'a-completely-different-secret-of-32-chars!'))).toBeNull();
    expect(await srv.services.authenticate(await supabaseToken({ sub }, SECRET, '-1m'))).toBeNull();
    expect(await srv.services.authenticate(await new SignJWT({ role: 'anon', iss: 'supabase' }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('1h').sign(new TextEncoder().encode(SECRET)))).toBeNull();
    expect(await srv.services.authenticate(await supabaseToken({ sub, aud: 'service' }))).toBeNull();
    expect(await srv.services.authenticate('not-a-jwt')).toBeNull();
  });

  it('has no local sign-up: /auth/v1 answers 404 saying Supabase handles it', async () => {
    const { error } = await supabaseClient(srv.url).auth.signUp({ email: 'fan@example.com', password: 'correct horse battery' });
    expect(error?.status).toBe(404);
    expect(error?.message).toMatch(/Authentication is handled by Supabase/);
    const res = await fetch(`${srv.url}/auth/v1/token?grant_type=password`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(404);
    expect((await fetch(`${srv.url}/dev/outbox`)).status).toBe(404);
  });
});

describe('AUTH_PROVIDER=supabase with SUPABASE_JWKS_URL', () => {
  let keys: TestOidc;
  let srv: TestServer;
  beforeAll(async () => {
    keys = await startTestOidc();
    srv = await startTestServer({ AUTH_PROVIDER: 'supabase', SUPABASE_JWKS_URL: keys.jwksUrl });
  });
  afterAll(async () => {
    await srv.close();
    await keys.close();
  });

  it('accepts a token signed with a key of the JWKS, and refuses HS256 tokens without a secret', async () => {
    const id = randomUUID();
    const token = await keys.sign({ sub: id, aud: 'authenticated', role: 'authenticated', email: 'jwks@example.com' });
    expect(await srv.services.authenticate(token)).toEqual({ id, email: 'jwks@example.com', role: 'authenticated' });
    expect(await srv.services.authenticate(await keys.sign({ sub: id, aud: 'other' }))).toBeNull();
    expect(await srv.services.authenticate(await supabaseToken({ sub: id }))).toBeNull();
  });
});
