// TRUST_PROXY behind a load balancer (found following docs/deploy-supabase.md through HAProxy): the client address is
// the entry the proxy appended to X-Forwarded-For, never one the client wrote itself, or an attacker would escape every
// per-address limit (sign-in back-off included) by sending a new X-Forwarded-For with each guess.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api } from '../cli/lib/game-client.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ TRUST_PROXY: 'true' });
});
afterAll(async () => srv?.close());

describe('TRUST_PROXY=true (one proxy hop)', () => {
  it('backs off an attacker who forges a new X-Forwarded-For entry with each guess', async () => {
    const email = `spoof-${randomUUID()}@example.com`;
    await new Api(srv.url).signUp(email, 'the owner knows this one');
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      // What a proxy in front sends on: the client's forged entry, then the address the proxy saw.
      const res = await fetch(`${srv.url}/auth/v1/token?grant_type=password`, {
        method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${i + 1}, 203.0.113.5` },
        body: JSON.stringify({ email, password: `guess ${i}` }),
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429, 429]);
  });
});
