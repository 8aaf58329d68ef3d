// HTML pages sent neither frame-ancestors nor X-Frame-Options, so another site framed a
// signed-in /my-profile. Every HTML page now forbids framing. The native wrapper loads the app as a top-level page in
// its WebView (docs/native-bridge.md), which neither header concerns, and nothing in web/ frames the app itself.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';

const dist = mkdtempSync(join(tmpdir(), 'looptale-dist-'));
let srv: TestServer;
beforeAll(async () => {
  writeFileSync(join(dist, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
  srv = await startTestServer({ WEB_DIST: dist });
});
afterAll(async () => {
  await srv?.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('defect 15: no page of the server can be framed by another site', () => {
  it("app pages and /docs send frame-ancestors 'none' and X-Frame-Options: DENY", async () => {
    for (const path of ['/', '/my-profile', '/login', '/index.html', '/docs']) {
      const res = await fetch(`${srv.url}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toMatch(/^text\/html/);
      expect(res.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
    }
  });
});
