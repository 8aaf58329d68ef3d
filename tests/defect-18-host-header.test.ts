// the Host header was not checked, so a page on evil.example whose name was re-bound
// to 127.0.0.1 (DNS rebinding) read /metrics and /dev/outbox from the player's own machine. Hosts not configured are
// refused with 421 and a JSON error, on HTTP and on the WebSocket upgrade; loopback names, PUBLIC_URL's host,
// ALLOWED_ORIGINS' hosts and ALLOWED_HOSTS pass.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({
    DEV_OUTBOX: 'true', PUBLIC_URL: 'https://play.example.com', ALLOWED_HOSTS: 'lb.internal, Game.Example.NET:8443',
    ALLOWED_ORIGINS: 'http://localhost:8787,https://app.example.org',
  });
});
afterAll(async () => srv?.close());

type Raw = { status: number; body: string; upgraded: boolean };

/** One raw request with exactly this Host header (fetch would not let a test forge it). */
function raw(path: string, host: string, headers: Record<string, string> = {}): Promise<Raw> {
  const { port } = new URL(srv.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host, ...headers }, setHost: false });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, upgraded: false }));
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, body: '', upgraded: true });
    });
    req.on('error', reject);
    req.end();
  });
}

const upgrade = { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' };

async function accessToken(): Promise<string> {
  const email = `host-${Date.now()}@example.com`;
  const res = await fetch(`${srv.url}/auth/v1/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'a long enough password 1' }) });
  const body = (await res.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`sign-up gave no token: ${JSON.stringify(body)}`);
  return body.access_token;
}

describe('defect 18: the Host header is checked (DNS rebinding)', () => {
  it('refuses a forged Host with 421 and a JSON error on /metrics, /dev/outbox, /api/stories', async () => {
    for (const path of ['/metrics', '/dev/outbox?email=a@example.com', '/api/stories']) {
      for (const host of ['evil.example', 'evil.example:8787', 'localhost.evil.example', '127.0.0.1.evil.example']) {
        const r = await raw(path, host);
        expect(r.status, `${host} ${path}`).toBe(421);
        const body = JSON.parse(r.body) as { error: { code: string; message: string } };
        expect(body.error.code).toBe('misdirected_request');
        expect(body.error.message).toContain('ALLOWED_HOSTS');
        expect(r.body).not.toContain('looptale_'); // no metric leaked
      }
    }
  });

  it('refuses a forged Host on the WebSocket upgrade, even with a valid token', async () => {
    const token = await accessToken();
    const bad = await raw(`/ws?token=${token}`, 'evil.example', upgrade);
    expect(bad.upgraded).toBe(false);
    expect(bad.status).toBe(421);
    expect((JSON.parse(bad.body) as { error: { code: string } }).error.code).toBe('misdirected_request');
    const good = await raw(`/ws?token=${token}`, `127.0.0.1:${new URL(srv.url).port}`, upgrade);
    expect(good.upgraded).toBe(true);
    expect(good.status).toBe(101);
  });

  it('lets configured hosts through: loopback names, PUBLIC_URL, ALLOWED_ORIGINS, ALLOWED_HOSTS', async () => {
    const { port } = new URL(srv.url);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'LOCALHOST', 'play.example.com', 'app.example.org', 'lb.internal:8080', 'game.example.net']) {
      const r = await raw('/api/stories', host);
      expect(r.status, host).toBe(200);
    }
    expect((await raw('/metrics', `localhost:${port}`)).status).toBe(200);
    expect((await raw('/dev/outbox?email=a@example.com', `127.0.0.1:${port}`)).status).toBe(200);
  });

  it('health probes answer whatever the Host (load balancers probe by address)', async () => {
    expect((await raw('/healthz', '10.0.0.7:8787')).status).toBe(200);
  });
});
