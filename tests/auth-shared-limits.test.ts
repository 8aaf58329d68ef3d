// Auth rate limits shared across server processes (#11): two server instances on one PostgreSQL keep their counters in
// looptale_private.auth_limits, so a client spreading its attempts over both (as a load balancer does) gets the
// attempts of one process, not twice as many. Same per account+address back-off as one process (signin-backoff.ts).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Api } from '../cli/lib/game-client.js';
import { postgresDatabase } from './helpers/databases.js';
import { startTestServer, type TestServer } from './helpers/server.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 180_000 });

const PASSWORD = 'the owner knows this one';
let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  const url = await postgresDatabase('limits');
  a = await startTestServer({ DATABASE_URL: url, TRUST_PROXY: 'true' });
  b = await startTestServer({ DATABASE_URL: url, TRUST_PROXY: 'true' });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

const post = (srv: TestServer, path: string, body: object, from: string): Promise<Response> =>
  fetch(`${srv.url}/auth/v1/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': from }, body: JSON.stringify(body) });

describe('two server processes on one PostgreSQL', () => {
  it('count password failures of one account and address together: 5 free across both, then back-off on either', async () => {
    const email = `shared-${randomUUID()}@example.com`;
    await new Api(a.url).signUp(email, PASSWORD);
    const from = '203.0.113.10';
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await post(i % 2 ? b : a, 'token?grant_type=password', { email, password: `guess ${i}` }, from)).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429, 429, 429]);
    const held = await post(b, 'token?grant_type=password', { email, password: PASSWORD }, from);
    expect(held.status).toBe(429);
    expect(Number(held.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // The owner, from another address, signs in through either process.
    expect((await post(a, 'token?grant_type=password', { email, password: PASSWORD }, '198.51.100.7')).status).toBe(200);
    // The table holds hashed keys, never an email or an address.
    const rows = await a.services.db.query<{ key: string; state: unknown }>('SELECT key, state FROM looptale_private.auth_limits');
    expect(rows.rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows.rows)).not.toContain(email);
    expect(JSON.stringify(rows.rows)).not.toContain(from);
  });

  it('allow one address 5 emails an hour across both, even asked for all at once', async () => {
    const email = `mail-${randomUUID()}@example.com`;
    await new Api(a.url).signUp(email, PASSWORD);
    // 12 recovery requests at once, half on each process, from 12 addresses: 5 emails go out, 7 are refused.
    const res = await Promise.all(Array.from({ length: 12 }, (_, i) => post(i % 2 ? b : a, 'recover', { email }, `192.0.2.${i + 1}`)));
    const statuses = res.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
    // 10 pass the per-email request limit of /recover (2 are refused there), 5 of those the emails-per-address one.
    const codes = (await Promise.all(res.filter((r) => r.status === 429).map(async (r) => ((await r.json()) as { error_code: string }).error_code))).sort();
    expect(codes).toEqual([...Array<string>(5).fill('over_email_send_rate_limit'), 'over_request_rate_limit', 'over_request_rate_limit']);
  });
});
