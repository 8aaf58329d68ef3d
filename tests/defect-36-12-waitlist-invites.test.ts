// Waitlist invitations: any signed-in user could redeem a made-up invite_token (POST /marketing/waitlist_redeem
// recorded whatever it was given), and so take a real one first and lock its holder out; the tokens were written to
// the request log in clear (the app's URL carries ?invite_token=). Now an invitation is issued by the server for one
// address (`looptale waitlist invite EMAIL`), only its holder can redeem it, and no token reaches the log.
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

async function player(): Promise<{ email: string; token: string }> {
  const email = uniqueEmail('invitee');
  const { data } = await supabaseClient(srv.url).auth.signUp({ email, password: 'correct horse battery' });
  return { email, token: data.session!.access_token };
}

function redeem(p: { token: string }, fields: Record<string, string>): Promise<Response> {
  return fetch(`${srv.url}/marketing/waitlist_redeem`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${p.token}` }, body: new URLSearchParams(fields),
  });
}

const redemptions = async (): Promise<number> => (await srv.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM marketing.waitlist_redemptions')).rows[0]!.n;

describe('defect 36.12: only the holder of a real invitation redeems it, and no token is logged', () => {
  it('a made-up token is refused and records nothing', async () => {
    const p = await player();
    const before = await redemptions();
    const res = await redeem(p, { email: p.email, invite_token: 'made-up-invite-token' });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: 'waitlist/invite_not_found' } });
    expect(await redemptions()).toBe(before);
  });

  it("someone else's real token is refused, and its holder still redeems it", async () => {
    const holder = await player();
    const thief = await player();
    const token = await issueInvitation(srv.services.db, holder.email);
    expect((await redeem(thief, { email: thief.email, invite_token: token })).status).toBe(404);
    const ok = await redeem(holder, { email: holder.email, invite_token: token });
    expect(ok.status).toBe(201);
    expect((await redeem(holder, { email: holder.email, invite_token: token })).status).toBe(200);
  });

  it('the request log never holds an invitation token', async () => {
    const p = await player();
    const token = await issueInvitation(srv.services.db, p.email);
    await fetch(`${srv.url}/?invite_token=${token}`);
    await fetch(`${srv.url}/browse?x=1&invite_token=${token}&y=2`);
    expect((await redeem(p, { email: p.email, invite_token: token })).status).toBe(201);
    const lines = srv.logs.filter((l) => l.includes('invite_token'));
    expect(lines.length).toBeGreaterThan(0);
    expect(srv.logs.filter((l) => l.includes(token))).toEqual([]);
    const stored = await srv.services.db.query<{ invite_token: string }>('SELECT invite_token FROM marketing.waitlist_redemptions WHERE email = $1', [p.email]);
    expect(stored.rows[0]?.invite_token).not.toBe(token);
  });
});
