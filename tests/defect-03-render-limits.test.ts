// Defect 3 of issue #14: image rendering exhausted memory and CPU without a login: every distinct width, height,
// quality and format was a fresh render (50 parallel 4096x4096 WebP renders: 91 s, RSS 1.3 -> 2.5 GB). Now only the
// spec's sizes render (each at its quality), at most RENDER_CONCURRENCY at once with a bounded queue (503 past it),
// results are cached, and each client may cause RENDER_PER_MINUTE fresh renders a minute (cached variants are free).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';

const STORIES = join(import.meta.dirname, '../fixtures/stories');
const LANTERN = '8b800bd3-b107-4b49-81d1-b7a4b8dcbc5a';
const base = `/storage/v1/render/image/public/image/${LANTERN}`;
let srv: TestServer;

beforeAll(async () => {
  srv = await startTestServer({ SEED_STORIES: 'true', STORIES_DIR: STORIES, TRUST_PROXY: 'true', RENDER_CONCURRENCY: '1', RENDER_QUEUE: '3', RENDER_PER_MINUTE: '6' });
});
afterAll(async () => srv?.close());

const get = (path: string, client: string): Promise<Response> => fetch(`${srv.url}${path}`, { headers: { 'x-forwarded-for': client } });

describe('defect 3: rendering is limited to the spec sizes, a concurrency cap, a cache and a per-client budget', () => {
  it('refuses sizes, qualities and formats outside the fixed set (400), without rendering', async () => {
    for (const q of ['width=4096&height=4096&format=webp', 'width=333&height=333', 'width=400&height=400&quality=81', 'width=400&height=400&format=png', 'width=400']) {
      const res = await get(`${base}/logo.svg?${q}`, '198.51.100.1');
      expect(res.status, q).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code, q).toMatch(/storage\/size_not_allowed|validation_error/);
    }
    const res = await get(`${base}/logo.svg?width=333&height=333`, '198.51.100.1');
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain('400x400');
    // A spec size takes its own quality when none is given.
    expect((await get(`${base}/logo.svg?width=400&height=400`, '198.51.100.1')).status).toBe(200);
  });

  it("caps a client's fresh renders per minute (429 + Retry-After) while cached variants stay free", async () => {
    const client = '198.51.100.2';
    const sizes = ['80x80', '400x300', '640x360', '800x600', '1200x900', '1280x720', '1600x1200'];
    const statuses: number[] = [];
    for (const s of sizes) {
      const [w, h] = s.split('x');
      statuses.push((await get(`${base}/place-quay.svg?width=${w}&height=${h}`, client)).status);
    }
    expect(statuses.slice(0, 6)).toEqual([200, 200, 200, 200, 200, 200]);
    const over = await get(`${base}/place-quay.svg?width=1600&height=1200`, client);
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
    // Already rendered: served from the cache, whoever asks.
    expect((await get(`${base}/place-quay.svg?width=80&height=80`, client)).status).toBe(200);
    // Another client has its own budget.
    expect((await get(`${base}/place-quay.svg?width=1600&height=1200`, '198.51.100.3')).status).toBe(200);
  });

  it('renders one at a time with a bounded queue: a burst of distinct renders gets 503 past the queue, never more at once', async () => {
    const files = ['background.svg', 'sample-quay.svg', 'character-nell.svg', 'logo.svg'];
    const sizes = [[1920, 1080], [1600, 1200], [1280, 720], [1200, 900]];
    const burst = files.flatMap((f, i) => sizes.map(([w, h], j) => get(`${base}/${f}?width=${w}&height=${h}&format=webp&resize=contain`, `203.0.113.${i * 4 + j}`)));
    const statuses = await Promise.all(burst.map(async (p) => (await p).status));
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
    expect(srv.services.renderer.stats.peakRunning).toBe(1);
  });
});
