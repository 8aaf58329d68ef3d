// /metrics was public (issue #14, "also fix"): it now answers loopback peers only by default (METRICS_ACCESS=local),
// a bearer token from anywhere with METRICS_TOKEN (METRICS_ACCESS=token), everyone with METRICS_ACCESS=public, nobody
// with METRICS_ACCESS=off.
import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { startTestServer } from './helpers/server.js';

const external = Object.values(networkInterfaces()).flat().find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
const TOKEN = 'metrics-token-0123456789abcdef';

async function withServer(env: Record<string, string>, body: (local: string, remote: string | null) => Promise<void>): Promise<void> {
  // Reached by its address from another machine, as a deployment on 0.0.0.0 lists it (any other Host gets 421).
  const srv = await startTestServer({ HOST: external ? '0.0.0.0' : '127.0.0.1', ALLOWED_HOSTS: external ?? '', ...env });
  try {
    const port = new URL(srv.url).port;
    await body(`http://127.0.0.1:${port}`, external ? `http://${external}:${port}` : null);
  } finally {
    await srv.close();
  }
}

describe('/metrics access', () => {
  it('by default answers loopback peers, and refuses proxied and remote requests (403)', async () => {
    await withServer({}, async (local, remote) => {
      expect((await fetch(`${local}/metrics`)).status).toBe(200);
      const proxied = await fetch(`${local}/metrics`, { headers: { 'x-forwarded-for': '198.51.100.4' } });
      expect(proxied.status).toBe(403);
      expect(await proxied.text()).not.toContain('looptale_turns_total');
      if (remote) expect((await fetch(`${remote}/metrics`)).status).toBe(403);
    });
  });

  it('with METRICS_TOKEN wants the bearer token from everyone (401 without it)', async () => {
    await withServer({ METRICS_TOKEN: TOKEN }, async (local, remote) => {
      expect((await fetch(`${local}/metrics`)).status).toBe(401);
      expect((await fetch(`${local}/metrics`, { headers: { authorization: 'Bearer wrong-token-wrong-token' } })).status).toBe(401);
      const ok = await fetch(`${local}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain('looptale_turns_total');
      if (remote) expect((await fetch(`${remote}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    });
  });

  it('METRICS_ACCESS=off removes it; public opens it; token without METRICS_TOKEN is refused at start', async () => {
    await withServer({ METRICS_ACCESS: 'off' }, async (local) => {
      expect((await fetch(`${local}/metrics`)).status).toBe(404);
    });
    await withServer({ METRICS_ACCESS: 'public' }, async (local) => {
      expect((await fetch(`${local}/metrics`, { headers: { 'x-forwarded-for': '198.51.100.4' } })).status).toBe(200);
    });
    await expect(startTestServer({ METRICS_ACCESS: 'token' })).rejects.toThrow(/METRICS_TOKEN/);
  });
});
