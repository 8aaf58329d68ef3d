// the app's CSP let pages connect to and load images from any http: or
// https: origin (and any ws:/wss: socket), so an injected page part could leak what it read anywhere. connect-src and
// img-src (and media-src) now name only the origins in use: self, its socket, PUBLIC_URL, the Supabase project when it
// signs players in, MEDIA_ORIGINS.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';

const dist = mkdtempSync(join(tmpdir(), 'looptale-dist-'));
let plain: TestServer;
let hosted: TestServer;
beforeAll(async () => {
  writeFileSync(join(dist, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
  [plain, hosted] = await Promise.all([
    startTestServer({ WEB_DIST: dist }),
    startTestServer({
      WEB_DIST: dist, PUBLIC_URL: 'https://play.example.com/', AUTH_PROVIDER: 'supabase', SUPABASE_URL: 'https://abc.supabase.co',
      SUPABASE_JWT_SECRET: 'a-legacy-jwt-secret-of-enough-length-0123', MEDIA_ORIGINS: 'https://cdn.example.net',
    }),
  ]);
});
afterAll(async () => {
  await Promise.all([plain?.close(), hosted?.close()]);
  rmSync(dist, { recursive: true, force: true });
});

/** The policy's directives, each with its sources. */
async function policy(url: string): Promise<Map<string, string[]>> {
  const res = await fetch(`${url}/my-profile`);
  expect(res.status).toBe(200);
  const csp = res.headers.get('content-security-policy') ?? '';
  return new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name = '', ...sources]) => [name, sources]));
}

describe('defect 17: the CSP names the origins in use', () => {
  it('a default server: self, its own socket, data:/blob: pictures; no scheme-wide source', async () => {
    const p = await policy(plain.url);
    const host = new URL(plain.url).host;
    expect(p.get('connect-src')).toEqual(["'self'", `ws://${host}`, `wss://${host}`]);
    expect(p.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
    expect(p.get('media-src')).toEqual(["'self'", 'data:', 'blob:']);
    for (const [name, sources] of p) {
      for (const bare of ['http:', 'https:', 'ws:', 'wss:', '*']) expect(sources, name).not.toContain(bare);
    }
    expect(p.get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('PUBLIC_URL (and its wss:), the Supabase project signing players in, MEDIA_ORIGINS', async () => {
    const p = await policy(hosted.url);
    const host = new URL(hosted.url).host;
    expect(p.get('connect-src')).toEqual(["'self'", `ws://${host}`, `wss://${host}`, 'https://play.example.com', 'wss://play.example.com', 'https://abc.supabase.co', 'https://cdn.example.net']);
    expect(p.get('img-src')).toEqual(["'self'", 'https://play.example.com', 'https://cdn.example.net', 'data:', 'blob:']);
  });
});
