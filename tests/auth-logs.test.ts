// The logs of whole sign-up / sign-in / refresh / magic-link / recovery / Google / sign-out sequences, at trace level,
// hold none of the passwords, tokens, links or codes that went through the server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ageRotatedRefreshTokens, APP_URL, follow, fragment, lastEmail, supabaseClient, uniqueEmail } from './helpers/auth.js';
import { startTestOidc, type TestOidc } from './helpers/oidc.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let srv: TestServer;
let oidc: TestOidc;
beforeAll(async () => {
  oidc = await startTestOidc();
  srv = await startTestServer({ DEV_OUTBOX: 'true', LOG_LEVEL: 'trace', GOOGLE_CLIENT_ID: oidc.clientId, GOOGLE_CLIENT_SECRET: oidc.clientSecret, GOOGLE_ISSUER: oidc.issuer });
});
afterAll(async () => {
  await srv.close();
  await oidc.close();
});

describe('logs', () => {
  it('never contain a password, token, link secret or code', async () => {
    const secrets: string[] = [];
    const codes: string[] = [];
    const keep = (...s: (string | undefined | null)[]): void => {
      for (const x of s) if (x) secrets.push(x);
    };
    const email = uniqueEmail('logs');
    const password = 'Tr0ub4dor&3-secret-passphrase';
    const newPassword = 'another-Secret-passphrase-42';
    keep(password, newPassword, oidc.clientSecret);

    const sb = supabaseClient(srv.url);
    const up = await sb.auth.signUp({ email, password });
    keep(up.data.session?.access_token, up.data.session?.refresh_token);
    const wrong = await supabaseClient(srv.url).auth.signInWithPassword({ email, password: 'Wrong-password-attempt-1' });
    expect(wrong.error).not.toBeNull();
    keep('Wrong-password-attempt-1');
    const inAgain = await sb.auth.signInWithPassword({ email, password });
    keep(inAgain.data.session?.access_token, inAgain.data.session?.refresh_token);
    const refreshed = await sb.auth.refreshSession();
    keep(refreshed.data.session?.access_token, refreshed.data.session?.refresh_token);
    // Reuse of a rotated refresh token, within the reuse interval then after it (logged, without the token).
    const raced = await supabaseClient(srv.url).auth.refreshSession({ refresh_token: inAgain.data.session!.refresh_token });
    keep(raced.data.session?.access_token, raced.data.session?.refresh_token);
    await ageRotatedRefreshTokens(srv.services.db, 11);
    await supabaseClient(srv.url).auth.refreshSession({ refresh_token: inAgain.data.session!.refresh_token });
    await supabaseClient(srv.url).auth.refreshSession({ refresh_token: 'made-up-refresh-token-value' });
    keep('made-up-refresh-token-value');

    const other = supabaseClient(srv.url);
    await other.auth.signInWithOtp({ email, options: { emailRedirectTo: APP_URL } });
    const magic = await lastEmail(srv.url, email, 'magiclink');
    keep(magic.token_hash, magic.link);
    codes.push(magic.code);
    const landed = fragment((await follow(magic.link)).location);
    keep(landed.access_token, landed.refresh_token);
    await other.auth.setSession({ access_token: landed.access_token!, refresh_token: landed.refresh_token! });
    await other.auth.getUser();
    await other.auth.updateUser({ password: newPassword, data: { note: 'hello' } });

    await supabaseClient(srv.url).auth.resetPasswordForEmail(email, { redirectTo: APP_URL });
    const rec = await lastEmail(srv.url, email, 'recovery');
    keep(rec.token_hash, rec.link);
    codes.push(rec.code);
    const r = await supabaseClient(srv.url).auth.verifyOtp({ email, token: rec.code, type: 'recovery' });
    keep(r.data.session?.access_token, r.data.session?.refresh_token);

    const pkce = supabaseClient(srv.url, 'pkce');
    await pkce.auth.signInWithOtp({ email, options: { emailRedirectTo: APP_URL } });
    const pm = await lastEmail(srv.url, email, 'magiclink');
    keep(pm.token_hash);
    codes.push(pm.code);
    const authCode = new URL((await follow(pm.link)).location).searchParams.get('code');
    keep(authCode);
    const x = await pkce.auth.exchangeCodeForSession(authCode!);
    keep(x.data.session?.access_token, x.data.session?.refresh_token);

    oidc.user = { sub: 'g-logs', email: uniqueEmail('glogs'), email_verified: true };
    const g = await supabaseClient(srv.url).auth.signInWithOAuth({ provider: 'google', options: { redirectTo: APP_URL, skipBrowserRedirect: true } });
    const toProvider = await follow(g.data.url!);
    const toCallback = await follow(toProvider.location);
    keep(new URL(toCallback.location).searchParams.get('code'));
    const gs = fragment((await follow(toCallback.location)).location);
    keep(gs.access_token, gs.refresh_token);

    await fetch(`${srv.url}/marketing/waitlist_redeem`, {
      method: 'POST', headers: { authorization: `Bearer ${x.data.session!.access_token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email, invite_token: 'invite-token-in-logs-check' }),
    });
    keep('invite-token-in-logs-check');
    expect((await pkce.auth.signOut()).error).toBeNull();

    const logs = srv.logs.join('');
    expect(srv.logs.length).toBeGreaterThan(20);
    expect(logs).toContain('email queued to the dev outbox');
    expect(logs).toContain('presented again within the reuse interval');
    expect(logs).toContain('a revoked refresh token was reused');
    for (const s of secrets) expect(logs.includes(s), `a secret (${s.slice(0, 6)}...) appears in the logs`).toBe(false);
    for (const c of codes) expect(new RegExp(`\\b${c}\\b`).test(logs), `the code ${c} appears in the logs`).toBe(false);
    // Each access token is three base64url parts: none of their signatures either.
    for (const s of secrets.filter((t) => t.split('.').length === 3)) expect(logs.includes(s.split('.')[2]!)).toBe(false);
  });
});
