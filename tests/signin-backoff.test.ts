// Password sign-in limits (issue #14, "also fix"): 10 wrong passwords in 5 minutes used to lock the account's owner
// out (the limit was per email). Failures now count per account and client address: after 5 of them that pair backs
// off (1 s, 2 s, 4 s... up to 15 minutes, 429 with Retry-After), while the owner, from another address, signs in.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api } from '../cli/lib/game-client.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ TRUST_PROXY: 'true' });
});
afterAll(async () => srv?.close());

const PASSWORD = 'the owner knows this one';
function signIn(email: string, password: string, from: string): Promise<Response> {
  return fetch(`${srv.url}/auth/v1/token?grant_type=password`, {
    method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': from }, body: JSON.stringify({ email, password }),
  });
}
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('password sign-in: per account and address, with back-off, never a lock-out', () => {
  it('an attacker hammering an account from one address does not lock its owner out', async () => {
    const email = `victim-${randomUUID()}@example.com`;
    await new Api(srv.url).signUp(email, PASSWORD);
    const attacker = '203.0.113.66';
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await signIn(email, `guess ${i}`, attacker)).status);
    // The owner, elsewhere, is not affected.
    const owner = await signIn(email, PASSWORD, '198.51.100.20');
    expect(owner.status, JSON.stringify(await owner.clone().json())).toBe(200);
    // The attacker is slowed down after 5 failures.
    expect(statuses.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
    expect(statuses.slice(5).every((s) => s === 429)).toBe(true);
  });

  it('backs off 1 s, then 2 s... between failures past the 5th (Retry-After), and a success clears the count', async () => {
    const email = `backoff-${randomUUID()}@example.com`;
    await new Api(srv.url).signUp(email, PASSWORD);
    const from = '203.0.113.77';
    for (let i = 0; i < 5; i++) expect((await signIn(email, `wrong ${i}`, from)).status).toBe(400);
    const held = await signIn(email, 'wrong 5', from);
    expect(held.status).toBe(429);
    expect(held.headers.get('retry-after')).toBe('1');
    expect(await held.json()).toMatchObject({ error_code: 'over_request_rate_limit' });
    await sleep(1100);
    expect((await signIn(email, 'wrong 6', from)).status).toBe(400);
    const longer = await signIn(email, 'wrong 7', from);
    expect(longer.status).toBe(429);
    expect(longer.headers.get('retry-after')).toBe('2');
    await sleep(2100);
    // The right password after waiting signs in, and the count starts over.
    expect((await signIn(email, PASSWORD, from)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await signIn(email, `again ${i}`, from)).status).toBe(400);
  });
});
