// Defect 2 of issue #14: `/dev/outbox` was on with a default `npm start` (NODE_ENV unset, no SMTP) and needed no
// login, so anyone could ask for a victim's magic link and read it there; `seed` was accepted by POST
// /api/player-stories whenever NODE_ENV was unset. Both are now opt-in (DEV_OUTBOX=true, ALLOW_RUN_SEED=true), the
// outbox answers loopback peers only, and the start-up log says so loudly.
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Api, ApiError } from '../cli/lib/game-client.js';
import { startTestServer } from './helpers/server.js';

const STORIES = join(import.meta.dirname, '../fixtures/stories');
const LANTERN = '8b800bd3-b107-4b49-81d1-b7a4b8dcbc5a';

/** An address of this machine that is not loopback (the test server listens on 0.0.0.0 to be reached there). */
const external = Object.values(networkInterfaces()).flat().find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

describe('defect 2: the dev outbox and the run seed are off unless asked for', () => {
  it('a default server (NODE_ENV unset, no SMTP) has no /dev/outbox, and refuses seed', async () => {
    const srv = await startTestServer({ NODE_ENV: undefined, SEED_STORIES: 'true', STORIES_DIR: STORIES });
    try {
      expect(srv.config.NODE_ENV).toBe('development');
      const api = new Api(srv.url);
      await api.signUp('victim@example.com', 'a long enough password');
      await fetch(`${srv.url}/auth/v1/otp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'victim@example.com' }) });
      const res = await fetch(`${srv.url}/dev/outbox?email=victim@example.com`);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain('verify?token');
      const seeded = await api.request('POST', '/api/player-stories', { blueprint_story_id: LANTERN, seed: 7 }).catch((e: unknown) => e);
      expect(seeded).toBeInstanceOf(ApiError);
      expect(seeded).toMatchObject({ status: 400, code: 'seed_not_allowed' });
    } finally {
      await srv.close();
    }
  });

  it('DEV_OUTBOX=true serves loopback peers only, never a proxied request, and warns loudly at start', async () => {
    const srv = await startTestServer({ NODE_ENV: undefined, DEV_OUTBOX: 'true', HOST: external ? '0.0.0.0' : '127.0.0.1', ALLOWED_HOSTS: external ?? '' });
    try {
      const local = `http://127.0.0.1:${new URL(srv.url).port}`;
      expect((await fetch(`${local}/dev/outbox`)).status).toBe(200);
      // Behind a reverse proxy on this machine every peer is loopback: a forwarded request is someone else.
      const proxied = await fetch(`${local}/dev/outbox`, { headers: { 'x-forwarded-for': '203.0.113.7' } });
      expect(proxied.status).toBe(403);
      expect(await proxied.json()).toMatchObject({ error: { code: 'forbidden' } });
      if (external) {
        const remote = await fetch(`http://${external}:${new URL(srv.url).port}/dev/outbox`);
        expect(remote.status).toBe(403);
      }
      const warning = srv.logs.map((l) => JSON.parse(l) as { level: number; msg: string }).find((l) => l.msg.includes('DEV OUTBOX'));
      expect(warning?.level).toBeGreaterThanOrEqual(40);
      expect(warning?.msg).toMatch(/sign-in links/);
    } finally {
      await srv.close();
    }
  });

  it('ALLOW_RUN_SEED=true accepts seed; production refuses both switches at start', async () => {
    const srv = await startTestServer({ NODE_ENV: undefined, ALLOW_RUN_SEED: 'true', SEED_STORIES: 'true', STORIES_DIR: STORIES });
    try {
      const api = new Api(srv.url);
      await api.signUp('seeded@example.com', 'a long enough password');
      const run = await api.request<{ id: string }>('POST', '/api/player-stories', { blueprint_story_id: LANTERN, seed: 7 });
      expect(run.id).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await srv.close();
    }
    await expect(startTestServer({ NODE_ENV: 'production', DEV_OUTBOX: 'true' })).rejects.toThrow(/DEV_OUTBOX/);
    await expect(startTestServer({ NODE_ENV: 'production', ALLOW_RUN_SEED: 'true' })).rejects.toThrow(/ALLOW_RUN_SEED/);
  });
});
