// Account pre-hijacking: with EMAIL_CONFIRMATION off, a password sign-up marked the address confirmed without proof,
// so whoever signed up a victim's address shared the account once the victim followed a magic link; and a second
// sign-up of an unconfirmed address replaced its password. Now a sign-up proves nothing: the address stays
// unconfirmed, a later sign-up of it is refused, and the first proof by email (magic link, recovery) drops the password
// nobody proved and ends every session it opened.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_URL, follow, fragment, getUserRaw, lastEmail, supabaseClient, uniqueEmail } from './helpers/auth.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const ATTACKER_PASSWORD = 'attacker chose this one';
const VICTIM_PASSWORD = 'victim chose this one';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ DEV_OUTBOX: 'true' });
});
afterAll(async () => {
  await srv.close();
});

async function followMagicLink(email: string): Promise<string> {
  const sent = await supabaseClient(srv.url).auth.signInWithOtp({ email, options: { emailRedirectTo: APP_URL } });
  expect(sent.error).toBeNull();
  const { status, location } = await follow((await lastEmail(srv.url, email, 'magiclink')).link);
  expect(status).toBe(303);
  const token = fragment(location).access_token;
  expect(token).toBeTruthy();
  return token!;
}

describe('defect 36.3: a sign-up does not confirm an address, and proof by email takes the account back', () => {
  it('a password sign-up gets a session but leaves the address unconfirmed; the password still signs in', async () => {
    const email = uniqueEmail('unproven');
    const up = await supabaseClient(srv.url).auth.signUp({ email, password: VICTIM_PASSWORD });
    expect(up.error).toBeNull();
    expect(up.data.session).not.toBeNull();
    expect(up.data.user?.email_confirmed_at).toBeUndefined();
    const again = await supabaseClient(srv.url).auth.signInWithPassword({ email, password: VICTIM_PASSWORD });
    expect(again.error).toBeNull();
  });

  it("the victim's magic link ends the attacker's sessions and drops the attacker's password", async () => {
    const email = uniqueEmail('victim');
    const attacker = await supabaseClient(srv.url).auth.signUp({ email, password: ATTACKER_PASSWORD });
    expect(attacker.error).toBeNull();
    const attackerToken = attacker.data.session!.access_token;
    expect((await getUserRaw(srv.url, attackerToken)).status).toBe(200);

    const victimToken = await followMagicLink(email);
    const victim = await getUserRaw(srv.url, victimToken);
    expect(victim.status).toBe(200);
    expect(victim.body.email_confirmed_at).toBeTruthy();

    expect(await getUserRaw(srv.url, attackerToken)).toMatchObject({ status: 403, body: { error_code: 'session_not_found' } });
    const refreshed = await supabaseClient(srv.url).auth.refreshSession({ refresh_token: attacker.data.session!.refresh_token });
    expect(refreshed.error).not.toBeNull();
    const signIn = await supabaseClient(srv.url).auth.signInWithPassword({ email, password: ATTACKER_PASSWORD });
    expect(signIn.error?.code).toBe('invalid_credentials');
  });

  it("a second sign-up of an unconfirmed password account does not replace its password", async () => {
    const email = uniqueEmail('first');
    const first = await supabaseClient(srv.url).auth.signUp({ email, password: VICTIM_PASSWORD });
    expect(first.error).toBeNull();
    const second = await supabaseClient(srv.url).auth.signUp({ email, password: ATTACKER_PASSWORD });
    expect(second.data.session).toBeNull();
    expect(second.error?.code).toBe('user_already_exists');
    expect((await getUserRaw(srv.url, first.data.session!.access_token)).status).toBe(200);
    expect((await supabaseClient(srv.url).auth.signInWithPassword({ email, password: ATTACKER_PASSWORD })).error?.code).toBe('invalid_credentials');
    expect((await supabaseClient(srv.url).auth.signInWithPassword({ email, password: VICTIM_PASSWORD })).error).toBeNull();
  });

  it('a recovery link to an unconfirmed account signs its other sessions out too', async () => {
    const email = uniqueEmail('recover');
    const attacker = await supabaseClient(srv.url).auth.signUp({ email, password: ATTACKER_PASSWORD });
    expect(attacker.error).toBeNull();
    expect((await supabaseClient(srv.url).auth.resetPasswordForEmail(email, { redirectTo: APP_URL })).error).toBeNull();
    const { location } = await follow((await lastEmail(srv.url, email, 'recovery')).link);
    expect(fragment(location).access_token).toBeTruthy();
    expect((await getUserRaw(srv.url, attacker.data.session!.access_token)).status).toBe(403);
    expect((await supabaseClient(srv.url).auth.signInWithPassword({ email, password: ATTACKER_PASSWORD })).error?.code).toBe('invalid_credentials');
  });

  it('once the address is proved, a magic link keeps the password and sessions', async () => {
    const email = uniqueEmail('kept');
    await supabaseClient(srv.url).auth.signUp({ email, password: ATTACKER_PASSWORD });
    const token = await followMagicLink(email);
    const set = await fetch(`${srv.url}/auth/v1/user`, {
      method: 'PUT', headers: { authorization: `Bearer ${token}`, apikey: 'anon-key', 'content-type': 'application/json' },
      body: JSON.stringify({ password: VICTIM_PASSWORD }),
    });
    expect(set.status).toBe(200);
    await followMagicLink(email);
    expect((await getUserRaw(srv.url, token)).status).toBe(200);
    expect((await supabaseClient(srv.url).auth.signInWithPassword({ email, password: VICTIM_PASSWORD })).error).toBeNull();
  });
});
