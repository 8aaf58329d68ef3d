// POST /marketing/waitlist_redeem: form-urlencoded email + invite_token (issued for that address) from a signed-in
// user whose email matches; recorded once, idempotent for the same pair, clear errors otherwise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueInvitation } from '../server/auth/waitlist.js';
import { supabaseClient, uniqueEmail } from './helpers/auth.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(async () => {
  await srv.close();
});

async function player(): Promise<{ email: string; token: string; id: string }> {
  const email = uniqueEmail('invitee');
  const { data } = await supabaseClient(srv.url).auth.signUp({ email, password: 'correct horse battery' });
  return { email, token: data.session!.access_token, id: data.user!.id };
}

function redeem(token: string | null, fields: Record<string, string>): Promise<Response> {
  return fetch(`${srv.url}/marketing/waitlist_redeem`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: new URLSearchParams(fields),
  });
}

describe('waitlist redemption', () => {
  it('records the redemption once; the same request again answers the same record', async () => {
    const p = await player();
    const invite = await issueInvitation(srv.services.db, p.email);
    const first = await redeem(p.token, { email: p.email.toUpperCase(), invite_token: invite });
    expect(first.status).toBe(201);
    const body = (await first.json()) as { email: string; redeemed_at: string; already_redeemed: boolean };
    expect(body).toMatchObject({ email: p.email, already_redeemed: false });
    const again = await redeem(p.token, { email: p.email, invite_token: invite });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ email: p.email, redeemed_at: body.redeemed_at, already_redeemed: true });
    const rows = await srv.services.db.query<{ user_id: string }>('SELECT user_id FROM marketing.waitlist_redemptions WHERE email = $1', [p.email]);
    expect(rows.rows).toEqual([{ user_id: p.id }]);
  });

  it('requires a signed-in user whose email matches', async () => {
    const p = await player();
    const anonymous = await redeem(null, { email: p.email, invite_token: 'invite-x' });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: { code: 'unauthorized' } });
    const other = await redeem(p.token, { email: uniqueEmail('someone-else'), invite_token: 'invite-x' });
    expect(other.status).toBe(403);
    expect(await other.json()).toEqual({ error: { code: 'waitlist/email_mismatch', message: 'The invitation email does not match the signed-in account.' } });
  });

  it('an invitation serves one account, and an account one invitation', async () => {
    const a = await player();
    const b = await player();
    const shared = await issueInvitation(srv.services.db, a.email);
    expect((await redeem(a.token, { email: a.email, invite_token: shared })).status).toBe(201);
    const taken = await redeem(b.token, { email: b.email, invite_token: shared });
    expect(taken.status).toBe(404);
    expect(await taken.json()).toMatchObject({ error: { code: 'waitlist/invite_not_found' } });
    const second = await redeem(a.token, { email: a.email, invite_token: await issueInvitation(srv.services.db, a.email) });
    expect(second.status).toBe(409);
    expect(await second.json()).toMatchObject({ error: { code: 'waitlist/already_redeemed' } });
  });

  it('names missing fields', async () => {
    const p = await player();
    const res = await redeem(p.token, { email: p.email });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain('invite_token');
  });
});
