// the Vite dev server's origin (http://localhost:5173) was allowed for CORS and auth
// redirects in production too. It is now allowed only when `npm run dev` asks for it (scripts/dev.ts sets
// ALLOWED_ORIGINS); by default a server allows its own origin and nothing else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../server/config.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const DEV = 'http://localhost:5173';
let srv: TestServer;
beforeAll(async () => {
  // The test helpers allow the dev origin as `npm run dev` does: here, the default is what is checked.
  srv = await startTestServer({ ALLOWED_ORIGINS: undefined });
});
afterAll(async () => srv?.close());

describe('defect 16: development origins are not allowed by default', () => {
  it('the default ALLOWED_ORIGINS has no development origin', () => {
    expect(loadConfig({}).ALLOWED_ORIGINS).not.toContain(DEV);
    expect(srv.config.ALLOWED_ORIGINS).not.toContain(DEV);
  });

  it('a request from http://localhost:5173 gets no CORS grant, and a redirect to it falls back to the server', async () => {
    const res = await fetch(`${srv.url}/auth/v1/settings`, { headers: { origin: DEV } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const r = await fetch(`${srv.url}/auth/v1/verify?token=nope&type=magiclink&redirect_to=${encodeURIComponent(`${DEV}/welcome`)}`, { redirect: 'manual' });
    expect(r.status).toBe(303);
    expect(r.headers.get('location') ?? '').not.toContain(DEV);
    expect(new URL(r.headers.get('location') ?? '').origin).toBe(srv.url);
  });
});
