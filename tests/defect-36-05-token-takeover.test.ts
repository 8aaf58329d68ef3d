// A stolen access token was a permanent takeover: PUT /auth/v1/user changed the password with no current password and
// the email at once (with EMAIL_CONFIRMATION off). Now a password or email change needs a session signed in within
// REAUTHENTICATION_WINDOW_S, the current password, or the nonce GET /auth/v1/reauthenticate emails (Supabase Auth's
// secure password change); an email change is confirmed on the new address, and the old one is told.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANON_KEY, APP_URL, claimsOf, follow, fragment, getUserRaw, lastEmail, outbox, supabaseClient, uniqueEmail } from './helpers/auth.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const PASSWORD = 'the owner knows this one';
const STOLEN = 'the thief would like this';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ DEV_OUTBOX: 'true' });
});
afterAll(async () => {
  await srv.close();
});

/** A confirmed account whose session was signed in an hour ago (the token a thief would hold). */
async function oldSession(): Promise<{ email: string; token: string }> {
  const email = uniqueEmail('owner');
  const up = await supabaseClient(srv.url).auth.signUp({ email, password: PASSWORD });
  expect(up.error).toBeNull();
  // The address proved (by a magic link, which drops the unproved password), then the password set again.
  await supabaseClient(srv.url).auth.signInWithOtp({ email, options: { emailRedirectTo: APP_URL } });
  const proved = fragment((await follow((await lastEmail(srv.url, email, 'magiclink')).link)).location).access_token!;
  expect((await putUser(proved, { password: PASSWORD })).status).toBe(200);
  const s = await supabaseClient(srv.url).auth.signInWithPassword({ email, password: PASSWORD });
  expect(s.error).toBeNull();
  const token = s.data.session!.access_token;
  await srv.services.db.query("UPDATE looptale_auth.sessions SET created_at = created_at - interval '1 hour' WHERE id = $1", [claimsOf(token).session_id]);
  return { email, token };
}

async function putUser(token: string, body: Record<string, unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${srv.url}/auth/v1/user`, {
    method: 'PUT', headers: { authorization: `Bearer ${token}`, apikey: ANON_KEY, 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const signsIn = async (email: string, password: string): Promise<boolean> => (await supabaseClient(srv.url).auth.signInWithPassword({ email, password })).error === null;

describe('defect 36.5: an access token alone cannot change the password or the email', () => {
  it('a session signed in long ago cannot set a new password with the token alone', async () => {
    const { email, token } = await oldSession();
    expect(await putUser(token, { password: STOLEN })).toMatchObject({ status: 400, body: { error_code: 'reauthentication_needed' } });
    expect(await signsIn(email, STOLEN)).toBe(false);
    expect(await signsIn(email, PASSWORD)).toBe(true);
  });

  it('the current password, when right, lets it; a wrong one is refused', async () => {
    const { email, token } = await oldSession();
    expect(await putUser(token, { password: STOLEN, current_password: 'a guess at it' })).toMatchObject({ status: 422, body: { error_code: 'invalid_credentials' } });
    expect(await signsIn(email, STOLEN)).toBe(false);
    expect((await putUser(token, { password: 'a fresh one for the owner', current_password: PASSWORD })).status).toBe(200);
    expect(await signsIn(email, 'a fresh one for the owner')).toBe(true);
  });

  it('the reauthentication nonce lets it once', async () => {
    const { email, token } = await oldSession();
    const res = await fetch(`${srv.url}/auth/v1/reauthenticate`, { headers: { authorization: `Bearer ${token}`, apikey: ANON_KEY } });
    expect(res.status).toBe(200);
    const mail = await lastEmail(srv.url, email, 'reauthentication');
    expect(mail.text).toContain(mail.code);
    expect(await putUser(token, { password: STOLEN, nonce: '000000' === mail.code ? '111111' : '000000' })).toMatchObject({ status: 422, body: { error_code: 'reauthentication_not_valid' } });
    expect((await putUser(token, { password: 'changed with the nonce', nonce: mail.code })).status).toBe(200);
    expect(await putUser(token, { password: 'and again with it', nonce: mail.code })).toMatchObject({ status: 422, body: { error_code: 'reauthentication_not_valid' } });
    expect(await signsIn(email, 'changed with the nonce')).toBe(true);
  });

  it('a fresh sign-in may change the password (a recovery link signs in too)', async () => {
    const email = uniqueEmail('fresh');
    const up = await supabaseClient(srv.url).auth.signUp({ email, password: PASSWORD });
    expect((await putUser(up.data.session!.access_token, { password: 'changed right after' })).status).toBe(200);
  });

  it('an email change waits for the new address to confirm it, and the old address is told', async () => {
    const { email, token } = await oldSession();
    const newEmail = uniqueEmail('thief');
    expect(await putUser(token, { email: newEmail })).toMatchObject({ status: 400, body: { error_code: 'reauthentication_needed' } });
    const asked = await putUser(token, { email: newEmail, current_password: PASSWORD });
    expect(asked).toMatchObject({ status: 200, body: { email, new_email: newEmail } });
    expect((await getUserRaw(srv.url, token)).body.email).toBe(email);
    const notice = (await outbox(srv.url, email)).filter((m) => m.type === 'email_change_notice');
    expect(notice).toHaveLength(1);
    expect(notice[0]!.text).toContain(newEmail);
    const { location } = await follow((await lastEmail(srv.url, newEmail, 'email_change')).link);
    expect(fragment(location).access_token).toBeTruthy();
    expect((await getUserRaw(srv.url, token)).body.email).toBe(newEmail);
  });
});
