// JSON went without X-Content-Type-Options: nosniff, responses carrying tokens could be
// cached (no Cache-Control: no-store on /auth/v1/token), and no HSTS was sent when served over HTTPS.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';

let srv: TestServer;
let proxied: TestServer;
beforeAll(async () => {
  [srv, proxied] = await Promise.all([startTestServer(), startTestServer({ TRUST_PROXY: 'true' })]);
});
afterAll(async () => Promise.all([srv?.close(), proxied?.close()]));

const json = { 'content-type': 'application/json' };

describe('defect 17: security headers on JSON, tokens and HTTPS', () => {
  it('JSON answers are nosniff; sign-up and /auth/v1/token answers (tokens) are no-store', async () => {
    expect((await fetch(`${srv.url}/api/stories`)).headers.get('x-content-type-options')).toBe('nosniff');
    const email = `h-${Date.now()}@example.com`;
    const up = await fetch(`${srv.url}/auth/v1/signup`, { method: 'POST', headers: json, body: JSON.stringify({ email, password: 'a long enough password 1' }) });
    expect(up.status).toBe(200);
    expect(up.headers.get('cache-control')).toBe('no-store');
    const tok = await fetch(`${srv.url}/auth/v1/token?grant_type=password`, { method: 'POST', headers: json, body: JSON.stringify({ email, password: 'a long enough password 1' }) });
    expect(tok.status).toBe(200);
    expect(((await tok.clone().json()) as { access_token?: string }).access_token).toBeTruthy();
    expect(tok.headers.get('cache-control')).toBe('no-store');
    expect(tok.headers.get('x-content-type-options')).toBe('nosniff');
    // A refused sign-in carries no token but is still the token route: never cached either.
    const bad = await fetch(`${srv.url}/auth/v1/token?grant_type=password`, { method: 'POST', headers: json, body: JSON.stringify({ email, password: 'wrong password here' }) });
    expect(bad.headers.get('cache-control')).toBe('no-store');
  });

  it('HSTS over HTTPS (X-Forwarded-Proto https behind TRUST_PROXY), never over plain HTTP', async () => {
    expect((await fetch(`${srv.url}/healthz`)).headers.get('strict-transport-security')).toBeNull();
    expect((await fetch(`${srv.url}/healthz`, { headers: { 'x-forwarded-proto': 'https' } })).headers.get('strict-transport-security')).toBeNull();
    expect((await fetch(`${proxied.url}/healthz`)).headers.get('strict-transport-security')).toBeNull();
    const https = await fetch(`${proxied.url}/healthz`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(https.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  });
});
