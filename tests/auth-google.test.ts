// Sign-in with Google end to end against a local OpenID Connect server (tests/helpers/oidc.ts): supabase-js builds the
// /authorize URL, the "browser" follows each redirect by hand, and the session arrives in the redirect fragment (or as
// a PKCE code). Also: identity upsert and linking, account chooser, PKCE towards the provider, and tampered answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_URL, claimsOf, follow, fragment, getUserRaw, lastEmail, supabaseClient, uniqueEmail } from './helpers/auth.js';
import { startTestOidc, type TestOidc } from './helpers/oidc.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let oidc: TestOidc;
let srv: TestServer;

beforeAll(async () => {
  oidc = await startTestOidc();
  srv = await startTestServer({ GOOGLE_CLIENT_ID: oidc.clientId, GOOGLE_CLIENT_SECRET: oidc.clientSecret, GOOGLE_ISSUER: oidc.issuer, DEV_OUTBOX: 'true' });
});
afterAll(async () => {
  await srv.close();
  await oidc.close();
});

/** Walks the redirects of a Google sign-in like a browser: our /authorize, the provider, our /callback. */
async function googleSignIn(flowType: 'implicit' | 'pkce' = 'implicit') {
  const sb = supabaseClient(srv.url, flowType);
  const { data, error } = await sb.auth.signInWithOAuth({ provider: 'google', options: { redirectTo: APP_URL, skipBrowserRedirect: true, queryParams: { prompt: 'consent' } } });
  expect(error).toBeNull();
  const toProvider = await follow(data.url!);
  expect(toProvider.status).toBe(302);
  expect(toProvider.location.startsWith(`${oidc.issuer}/authorize?`)).toBe(true);
  const toCallback = await follow(toProvider.location);
  expect(toCallback.status).toBe(302);
  expect(toCallback.location.startsWith(`${srv.url}/auth/v1/callback?`)).toBe(true);
  const toApp = await follow(toCallback.location);
  expect(toApp.status).toBe(303);
  return { sb, location: toApp.location, authorize: oidc.authorizeRequests.at(-1)!, callback: toCallback.location };
}

describe('Google sign-in', () => {
  it('creates the user and its google identity and lands on redirect_to with a session', async () => {
    const email = uniqueEmail('google');
    oidc.user = { sub: 'g-100', email, email_verified: true, name: 'Grace Hopper', picture: 'https://example.com/g.png' };
    const { sb, location, authorize } = await googleSignIn();
    // What went to the provider: our client id, our callback, the account chooser, PKCE, state and nonce.
    expect(authorize).toMatchObject({ client_id: oidc.clientId, redirect_uri: `${srv.url}/auth/v1/callback`, response_type: 'code', code_challenge_method: 'S256' });
    expect(authorize.prompt?.split(' ').sort()).toEqual(['consent', 'select_account']);
    expect(authorize.scope?.split(' ')).toEqual(expect.arrayContaining(['openid', 'email', 'profile']));
    expect(authorize.state?.length).toBeGreaterThan(20);
    expect(authorize.nonce?.length).toBeGreaterThan(20);
    expect(location.startsWith(`${APP_URL}#`)).toBe(true);
    const f = fragment(location);
    expect(f).toMatchObject({ token_type: 'bearer', provider_type: 'google' });
    expect(claimsOf(f.access_token!)).toMatchObject({ email, amr: [{ method: 'oauth', timestamp: expect.any(Number) as number }] });
    expect((await sb.auth.setSession({ access_token: f.access_token!, refresh_token: f.refresh_token! })).error).toBeNull();
    const user = (await sb.auth.getUser()).data.user!;
    expect(user.email).toBe(email);
    expect(user.email_confirmed_at).toBeTruthy();
    expect(user.app_metadata).toEqual({ provider: 'google', providers: ['google'] });
    expect(user.user_metadata).toMatchObject({ full_name: 'Grace Hopper', avatar_url: 'https://example.com/g.png', email_verified: true });
    expect(user.identities?.map((i) => [i.provider, i.id])).toEqual([['google', 'g-100']]);

    // The same Google account signs in to the same user.
    const again = fragment((await googleSignIn()).location);
    expect(claimsOf(again.access_token!).sub).toBe(user.id);
  });

  it('links a Google account to the existing password account with the same (verified) email', async () => {
    const email = uniqueEmail('both');
    const pw = await supabaseClient(srv.url).auth.signUp({ email, password: 'correct horse battery' });
    // The owner proved the address with the sign-up's confirmation link: the password is theirs and stays.
    expect((await supabaseClient(srv.url).auth.resend({ type: 'signup', email, options: { emailRedirectTo: APP_URL } })).error).toBeNull();
    expect((await follow((await lastEmail(srv.url, email, 'signup')).link)).status).toBe(303);
    oidc.user = { sub: 'g-200', email: email.toUpperCase(), email_verified: true };
    const f = fragment((await googleSignIn()).location);
    expect(claimsOf(f.access_token!).sub).toBe(pw.data.user!.id);
    const sb = supabaseClient(srv.url);
    await sb.auth.setSession({ access_token: f.access_token!, refresh_token: f.refresh_token! });
    const user = (await sb.auth.getUser()).data.user!;
    expect(user.app_metadata.providers).toEqual(['email', 'google']);
    expect(user.identities?.map((i) => i.provider).sort()).toEqual(['email', 'google']);
    expect((await supabaseClient(srv.url).auth.signInWithPassword({ email, password: 'correct horse battery' })).error).toBeNull();
  });

  it('takes an unconfirmed password account for the address Google verified: the unproven password and its sessions go', async () => {
    const email = uniqueEmail('squatted');
    const squatter = await supabaseClient(srv.url).auth.signUp({ email, password: 'squatter chose this' });
    expect(squatter.error).toBeNull();
    oidc.user = { sub: 'g-250', email, email_verified: true };
    const f = fragment((await googleSignIn()).location);
    expect(claimsOf(f.access_token!).sub).toBe(squatter.data.user!.id);
    expect((await getUserRaw(srv.url, f.access_token!)).status).toBe(200);
    expect(await getUserRaw(srv.url, squatter.data.session!.access_token)).toMatchObject({ status: 403, body: { error_code: 'session_not_found' } });
    const signIn = await supabaseClient(srv.url).auth.signInWithPassword({ email, password: 'squatter chose this' });
    expect(signIn.error?.code).toBe('invalid_credentials');
  });

  it('does not link to an existing account when Google has not verified the email', async () => {
    const email = uniqueEmail('unverified');
    await supabaseClient(srv.url).auth.signUp({ email, password: 'correct horse battery' });
    oidc.user = { sub: 'g-300', email, email_verified: false };
    const f = fragment((await googleSignIn()).location);
    expect(f.error_code).toBe('provider_email_needs_verification');
    expect(f.access_token).toBeUndefined();
  });

  it('PKCE: the callback redirects with ?code= for exchangeCodeForSession', async () => {
    const email = uniqueEmail('gpkce');
    oidc.user = { sub: 'g-400', email, email_verified: true };
    const { sb, location } = await googleSignIn('pkce');
    const code = new URL(location).searchParams.get('code')!;
    expect(code).toBeTruthy();
    const x = await sb.auth.exchangeCodeForSession(code);
    expect(x.error).toBeNull();
    expect(x.data.user?.email).toBe(email);
  });

  it('refuses an id_token with the wrong nonce or audience, and a replayed state', async () => {
    oidc.user = { sub: 'g-500', email: uniqueEmail('tamper'), email_verified: true };
    oidc.tamperNextIdToken = (c) => ({ ...c, nonce: 'not-the-nonce' });
    const bad = fragment((await googleSignIn()).location);
    expect(bad).toMatchObject({ error: 'server_error', error_code: 'bad_oauth_callback' });
    expect(bad.access_token).toBeUndefined();
    oidc.tamperNextIdToken = (c) => ({ ...c, aud: 'someone-else' });
    expect(fragment((await googleSignIn()).location).error_code).toBe('bad_oauth_callback');
    oidc.tamperNextIdToken = (c) => ({ ...c, iss: 'https://accounts.example.com' });
    expect(fragment((await googleSignIn()).location).error_code).toBe('bad_oauth_callback');
    oidc.tamperNextIdToken = ({ nonce: _nonce, ...c }) => c;
    expect(fragment((await googleSignIn()).location).error_code).toBe('bad_oauth_callback');
    expect(srv.logs.join('')).toContain('Google sign-in failed at the code exchange');

    const ok = await googleSignIn();
    expect(fragment(ok.location).access_token).toBeTruthy();
    const replay = await fetch(ok.callback, { redirect: 'manual' });
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error_code: 'bad_oauth_state', msg: 'OAuth callback with invalid state' });
  });

  it('follows the provider’s key rotation (its JWKS is fetched again for a new key id)', async () => {
    oidc.user = { sub: 'g-600', email: uniqueEmail('rotate'), email_verified: true };
    expect(fragment((await googleSignIn()).location).access_token).toBeTruthy();
    await oidc.rotateKey();
    expect(fragment((await googleSignIn()).location).access_token).toBeTruthy();
  });

  it('a refusal at the provider comes back as an error in the redirect', async () => {
    const { data } = await supabaseClient(srv.url).auth.signInWithOAuth({ provider: 'google', options: { redirectTo: APP_URL, skipBrowserRedirect: true } });
    const toProvider = await follow(data.url!);
    const state = new URL(toProvider.location).searchParams.get('state')!;
    const back = await follow(`${srv.url}/auth/v1/callback?error=access_denied&error_description=${encodeURIComponent('The user said no')}&state=${state}`);
    expect(back.location.startsWith(`${APP_URL}#`)).toBe(true);
    expect(fragment(back.location)).toMatchObject({ error: 'access_denied', error_description: 'The user said no' });
  });

  it('GET /settings lists google; other providers are refused', async () => {
    expect(await (await fetch(`${srv.url}/auth/v1/settings`)).json()).toMatchObject({ external: { google: true } });
    const res = await fetch(`${srv.url}/auth/v1/authorize?provider=github`, { redirect: 'manual' });
    expect(res.status).toBe(400);
  });
});
