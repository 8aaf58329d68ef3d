// Defect 9 of issue #14: user metadata had no depth or size limit: a PUT /auth/v1/user with metadata nested 2,700
// levels deep answered 200, after which every sign-in and refresh of the account returned 500. Depth, size and key
// counts are now capped at the edge (400), and the account keeps working.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api } from '../cli/lib/game-client.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(async () => srv?.close());

const nested = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const PASSWORD = 'a long enough password';

async function put(token: string, body: string): Promise<Response> {
  return fetch(`${srv.url}/auth/v1/user`, { method: 'PUT', body, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` } });
}

describe('defect 9: user metadata is capped in depth and size', () => {
  it('refuses metadata nested 2,700 levels deep (400), and the account still signs in and refreshes', async () => {
    const email = `deep-${randomUUID()}@example.com`;
    const s = await new Api(srv.url).signUp(email, PASSWORD);
    const res = await put(s.access_token, `{"data":${nested(2700)}}`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error_code: string; msg: string };
    expect(body.error_code).toBe('validation_failed');
    expect(body.msg).toMatch(/deeper than \d+ levels/);
    const signIn = await fetch(`${srv.url}/auth/v1/token?grant_type=password`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
    expect(signIn.status).toBe(200);
    const refresh = await fetch(`${srv.url}/auth/v1/token?grant_type=refresh_token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ refresh_token: s.refresh_token }) });
    expect(refresh.status).toBe(200);
  });

  it('takes metadata 8 levels deep, refuses 9; refuses too many keys and more than 16 KiB; signup alike', async () => {
    const s = await new Api(srv.url).signUp(`meta-${randomUUID()}@example.com`, PASSWORD);
    const ok = await put(s.access_token, `{"data":{"deep":${nested(7)}}}`);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { user_metadata: Record<string, unknown> }).user_metadata).toHaveProperty('deep');
    expect((await put(s.access_token, `{"data":{"deep":${nested(8)}}}`)).status).toBe(400);
    const manyKeys = JSON.stringify({ data: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`k${i}`, i])) });
    expect((await put(s.access_token, manyKeys)).status).toBe(400);
    expect((await put(s.access_token, JSON.stringify({ data: { big: 'x'.repeat(17_000) } }))).status).toBe(400);
    const signup = await fetch(`${srv.url}/auth/v1/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"email":"deep-signup-${randomUUID()}@example.com","password":"${PASSWORD}","data":${nested(2700)}}` });
    expect(signup.status).toBe(400);
  });
});
