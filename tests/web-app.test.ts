// The web app served by the game server (server/http/web-app.ts): index.html for every app route (no-cache, with
// its Content-Security-Policy), hashed assets cached a year as immutable and sent precompressed, the server's own
// paths never answered with the app, and a clear page when the app is not built.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIST } from '../scripts/build-web.js';
import { ensureWebBuilt } from './e2e/harness.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let srv: TestServer;
let asset: string;

beforeAll(async () => {
  await ensureWebBuilt();
  srv = await startTestServer();
  const js = readdirSync(join(DIST, 'assets')).find((f) => /^index-.*\.js$/.test(f));
  if (!js) throw new Error('no index-*.js in web/dist/assets');
  asset = `/assets/${js}`;
}, 180_000);
afterAll(async () => srv?.close());

const get = (path: string, headers: Record<string, string> = {}, method = 'GET') => fetch(`${srv.url}${path}`, { method, headers });

describe('the web app, served by the game server', () => {
  it('answers every app route with index.html, never cached without revalidation', async () => {
    for (const p of ['/', '/browse', '/login', '/launch/8b800bd3-b107-4b49-81d1-b7a4b8dcbc5a', '/game/x', '/admin/prompts/1/evals', '/no/such/page']) {
      const res = await get(p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-type'), p).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control'), p).toBe('no-cache');
      expect(res.headers.get('content-security-policy'), p).toContain("script-src 'self'");
      expect(await res.text(), p).toContain('<div id="root"></div>');
    }
    const etag = (await get('/browse')).headers.get('etag') ?? '';
    expect((await get('/browse', { 'if-none-match': etag })).status).toBe(304);
    const head = await get('/browse', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('sends hashed assets as immutable for a year, brotli or gzip when accepted', async () => {
    const plain = await get(asset, { 'accept-encoding': 'identity' });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(plain.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(plain.headers.get('content-encoding')).toBeNull();
    const body = await plain.text();
    const br = await get(asset, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(Number(br.headers.get('content-length'))).toBeLessThan(body.length / 2);
    expect(await br.text()).toBe(body); // fetch decodes it
    const gz = await get(asset, { 'accept-encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(await gz.text()).toBe(body);
    expect((await get('/favicon.svg')).headers.get('content-type')).toBe('image/svg+xml');
  });

  it("keeps the server's own paths: JSON 404s under them, a missing asset is a 404, not the app", async () => {
    for (const p of ['/api/nope', '/storage/v1/nope', '/data/nope', '/ws', '/dev/nope', '/marketing/nope', '/auth/v1/nope']) {
      const res = await get(p, { accept: 'text/html' });
      expect(res.status, p).toBe(404);
      expect(res.headers.get('content-type'), p).toContain('application/json');
    }
    expect((await get('/data/catalogue.json')).status).toBe(200);
    expect((await get('/healthz')).status).toBe(200);
    for (const p of ['/assets/index-missing.js', '/nope.png', '/..%2f..%2fpackage.json', '/%2e%2e/%2e%2e/package.json']) {
      const res = await get(p);
      expect(res.status, p).toBe(404);
      expect(await res.text(), p).not.toContain('"name": "looptale"');
    }
  });

  it('says how to build the app when it is not built, and the API still answers', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'looptale-no-web-'));
    const bare = await startTestServer({ WEB_DIST: empty });
    try {
      const res = await fetch(`${bare.url}/browse`);
      expect(res.status).toBe(503);
      expect(await res.text()).toContain('npm run build:web');
      expect((await fetch(`${bare.url}/data/catalogue.json`)).status).toBe(200);
    } finally {
      await bare.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
