// The media store interface (server/media/store.ts) on its three stores: the same contract on local disk, in
// PostgreSQL (looptale_private.media_objects) and in Supabase Storage (against tests/helpers/fake-supabase-storage.ts:
// an external paid API). Then the server on them: two server instances on one PostgreSQL each serve what the other
// stored (no shared disk), and a server with MEDIA_STORE=supabase seeds, serves and takes uploads through the API.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Api } from '../cli/lib/game-client.js';
import type { Db } from '../server/db/db.js';
import { openDb } from '../server/db/open.js';
import { DatabaseMediaStore } from '../server/media/db-store.js';
import { MediaStorage } from '../server/media/storage.js';
import { readAll, type MediaStore } from '../server/media/store.js';
import { SupabaseMediaStore } from '../server/media/supabase-store.js';
import { postgresDatabase } from './helpers/databases.js';
import { startFakeStorage, type FakeStorage } from './helpers/fake-supabase-storage.js';
import { startTestServer, type TestServer } from './helpers/server.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 180_000 });

const ROOT = join(import.meta.dirname, '../fixtures/stories');
const LANTERN = '8b800bd3-b107-4b49-81d1-b7a4b8dcbc5a';
const KEY = 'service-role-key-of-the-fake';
const temp: string[] = [];
const closers: (() => Promise<void>)[] = [];
let dbUrl = '';
let db: Db;
let fake: FakeStorage;

const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'looptale-media-store-'));
  temp.push(d);
  return d;
};
const png = (width: number, height: number, color = '#336699'): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 4, background: color } }).png().toBuffer();

beforeAll(async () => {
  dbUrl = await postgresDatabase('media');
  db = await openDb({ DATABASE_URL: dbUrl, DATA_DIR: tempDir(), DATABASE_POOL_SIZE: 4 });
  closers.push(() => db.close());
  fake = await startFakeStorage({ serviceKey: KEY, buckets: ['image', 'sound'] });
  closers.push(() => fake.close());
});
afterAll(async () => {
  for (const c of closers.reverse()) await c().catch(() => undefined);
  for (const d of temp) rmSync(d, { recursive: true, force: true });
});

const stores: [string, () => MediaStore][] = [
  ['disk', () => new MediaStorage(tempDir())],
  ['database', () => new DatabaseMediaStore(db, tempDir())],
  ['supabase', () => new SupabaseMediaStore({ url: fake.url, serviceKey: KEY, cacheRoot: tempDir() })],
];

describe.each(stores)('the %s store', (_kind, make) => {
  it('stores, replaces, lists and reads by range', async () => {
    const store = make();
    const story = randomUUID();
    const other = randomUUID();
    const a = await png(8, 8);
    const b = await png(16, 16, '#aa0000');
    expect(await store.stat('image', story, 'a.png')).toBeNull();
    expect(await store.read('image', story, 'a.png')).toBeNull();
    expect(await store.put('image', story, 'a.png', a, false)).toBe('created');
    expect(await store.put('image', story, 'a.png', b, false)).toBe('exists');
    expect(await readAll(store, 'image', story, 'a.png')).toEqual(a);
    const first = await store.stat('image', story, 'a.png');
    expect(first).toMatchObject({ name: 'a.png', size: a.length, contentType: 'image/png' });
    expect(first?.etag).toMatch(/^".+"$/);
    expect(await store.put('image', story, 'a.png', b, true)).toBe('replaced');
    const second = await store.stat('image', story, 'a.png');
    expect(second?.size).toBe(b.length);
    expect(second?.etag).not.toBe(first?.etag);
    expect(await readAll(store, 'image', story, 'a.png')).toEqual(b);
    expect(await store.put('image', story, 'b.png', a, true)).toBe('created');
    expect(await store.put('sound', other, 'x.wav', Buffer.from('RIFF....WAVE'), false)).toBe('created');

    // A byte range: exactly those bytes.
    const part = await store.read('image', story, 'a.png', { start: 3, end: 10 });
    const bytes = part === null || Buffer.isBuffer(part) ? part : Buffer.concat(await part.toArray() as Buffer[]);
    expect(bytes).toEqual(b.subarray(3, 11));

    expect((await store.list('image', story)).map((o) => [o.name, o.size])).toEqual([['a.png', b.length], ['b.png', a.length]]);
    expect(await store.list('image', other)).toEqual([]);
    expect(await store.stories('image')).toContain(story);
    expect(await store.stories('image')).not.toContain(other);
    expect(await store.stories('sound')).toContain(other);
  });

  it('lets one of two concurrent creations of a file win', async () => {
    const store = make();
    const story = randomUUID();
    const r = await Promise.all([1, 2, 3, 4].map(async (i) => store.put('image', story, 'race.png', await png(4 + i, 4), false)));
    // The fake storage answers sequentially, so it also sees exactly one creation.
    expect(r.filter((x) => x === 'created')).toHaveLength(1);
    expect(r.filter((x) => x === 'exists')).toHaveLength(3);
  });
});

describe('the Supabase store against a failing Storage', () => {
  it('names the failure, and never takes an error for a missing object', async () => {
    const store = new SupabaseMediaStore({ url: fake.url, serviceKey: KEY, cacheRoot: tempDir() });
    fake.failNext(1, 503);
    await expect(store.stat('image', randomUUID(), 'x.png')).rejects.toThrow(/Supabase Storage HEAD answered 503/);
    const wrongKey = new SupabaseMediaStore({ url: fake.url, serviceKey: 'not-the-key', cacheRoot: tempDir() });
    await expect(wrongKey.put('image', randomUUID(), 'x.png', await png(2, 2), false)).rejects.toThrow(/answered 403.*invalid signature/);
  });

  it('reads the older deployments\' 400-with-statusCode answers', async () => {
    const legacy = await startFakeStorage({ serviceKey: KEY, buckets: ['image'], legacyErrors: true });
    closers.push(() => legacy.close());
    const store = new SupabaseMediaStore({ url: legacy.url, serviceKey: KEY, cacheRoot: tempDir() });
    const story = randomUUID();
    expect(await store.stat('image', story, 'x.png')).toBeNull();
    expect(await store.read('image', story, 'x.png')).toBeNull();
    expect(await store.put('image', story, 'x.png', await png(2, 2), false)).toBe('created');
    expect(await store.put('image', story, 'x.png', await png(3, 3), false)).toBe('exists');
  });
});

/** A signed-up author of the Lantern Keeper on `srv`, and their token. */
async function author(srv: TestServer): Promise<string> {
  const session = await new Api(srv.url).signUp(`author-${randomUUID()}@example.com`, 'correct horse battery staple');
  await srv.services.authors.addAuthor(LANTERN, session.user.id);
  return session.access_token;
}

const upload = (srv: TestServer, token: string, path: string, body: Buffer, type: string, upsert = false): Promise<Response> =>
  fetch(`${srv.url}/storage/v1/object/${path}`, {
    method: 'POST', body: new Uint8Array(body),
    headers: { 'content-type': type, authorization: `Bearer ${token}`, ...(upsert ? { 'x-upsert': 'true' } : {}) },
  });

describe('two server instances on one PostgreSQL (the database store, no shared disk)', () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    const dbUrl2 = await postgresDatabase('media2');
    a = await startTestServer({ DATABASE_URL: dbUrl2, SEED_STORIES: 'true', STORIES_DIR: ROOT });
    closers.push(() => a.close());
    b = await startTestServer({ DATABASE_URL: dbUrl2, SEED_STORIES: 'true', STORIES_DIR: ROOT });
    closers.push(() => b.close());
  });

  it('each serves the seeded media and what the other stored, by range and with the same ETag', async () => {
    expect(a.services.media.kind).toBe('database');
    // The second instance found every seeded file stored already.
    expect(a.logs.some((l) => l.includes('story media copied into storage'))).toBe(true);
    expect(b.logs.some((l) => l.includes('story media copied into storage'))).toBe(false);
    const seeded = await a.services.media.list('image', LANTERN);
    expect(seeded.length).toBeGreaterThan(3);

    const token = await author(a);
    const img = await png(300, 200);
    expect((await upload(a, token, `image/${LANTERN}/shared.png`, img, 'image/png')).status).toBe(200);
    const fromB = await fetch(`${b.url}/storage/v1/object/public/image/${LANTERN}/shared.png`);
    expect(fromB.status).toBe(200);
    expect(Buffer.from(await fromB.arrayBuffer())).toEqual(img);
    const etag = fromB.headers.get('etag') ?? '';
    const fromA = await fetch(`${a.url}/storage/v1/object/public/image/${LANTERN}/shared.png`, { headers: { 'if-none-match': etag } });
    expect(fromA.status).toBe(304);
    const range = await fetch(`${b.url}/storage/v1/object/public/image/${LANTERN}/shared.png`, { headers: { range: 'bytes=10-19' } });
    expect(range.status).toBe(206);
    expect(range.headers.get('content-range')).toBe(`bytes 10-19/${img.length}`);
    expect(Buffer.from(await range.arrayBuffer())).toEqual(img.subarray(10, 20));

    // Rendered by B (its own cache), then replaced through B: A serves the new bytes, B renders the new source.
    const render = (srv: TestServer): Promise<Response> => fetch(`${srv.url}/storage/v1/render/image/public/image/${LANTERN}/shared.png?width=400&height=400`);
    const r1 = await render(b);
    expect(r1.status).toBe(200);
    const img2 = await png(300, 200, '#ff0000');
    expect((await upload(b, token, `image/${LANTERN}/shared.png`, img2, 'image/png', true)).status).toBe(200);
    expect(Buffer.from(await (await fetch(`${a.url}/storage/v1/object/public/image/${LANTERN}/shared.png`)).arrayBuffer())).toEqual(img2);
    const r2 = await render(b);
    expect(r2.headers.get('etag')).not.toBe(r1.headers.get('etag'));
    const { dominant } = await sharp(Buffer.from(await r2.arrayBuffer())).stats();
    expect(dominant.r).toBeGreaterThan(200);
    // supabase-js list() through either instance.
    const listed = await (await fetch(`${b.url}/storage/v1/object/list/image`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prefix: LANTERN }) })).json() as { name: string }[];
    expect(listed.map((x) => x.name)).toContain('shared.png');
  });
});

describe('a server with MEDIA_STORE=supabase', () => {
  let srv: TestServer;
  let storage: FakeStorage;
  beforeAll(async () => {
    storage = await startFakeStorage({ serviceKey: KEY, buckets: ['image', 'sound'] });
    closers.push(() => storage.close());
    srv = await startTestServer({ SEED_STORIES: 'true', STORIES_DIR: ROOT, MEDIA_STORE: 'supabase', SUPABASE_URL: storage.url, SUPABASE_SERVICE_ROLE_KEY: KEY });
    closers.push(() => srv.close());
  });

  it('seeds the story media into Storage, serves them, and stores uploads there', async () => {
    expect(srv.services.media.kind).toBe('supabase');
    const seeded = [...storage.objects.keys()].filter((k) => k.startsWith(`image/${LANTERN}/`));
    expect(seeded.length).toBeGreaterThan(3);
    const file = seeded[0]!.split('/').pop()!;
    const res = await fetch(`${srv.url}/storage/v1/object/public/image/${LANTERN}/${file}`);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(storage.objects.get(seeded[0]!)!.body);

    const token = await author(srv);
    const img = await png(64, 64);
    expect((await upload(srv, token, `image/${LANTERN}/up.png`, img, 'image/png')).status).toBe(200);
    expect(storage.objects.get(`image/${LANTERN}/up.png`)?.body).toEqual(img);
    expect((await upload(srv, token, `image/${LANTERN}/up.png`, img, 'image/png')).status).toBe(409);
    const range = await fetch(`${srv.url}/storage/v1/object/public/image/${LANTERN}/up.png`, { headers: { range: 'bytes=0-7' } });
    expect(range.status).toBe(206);
    expect(Buffer.from(await range.arrayBuffer())).toEqual(img.subarray(0, 8));
    expect((await fetch(`${srv.url}/storage/v1/render/image/public/image/${LANTERN}/up.png?width=400&height=400`)).status).toBe(200);
    expect((await fetch(`${srv.url}/storage/v1/object/public/image/${LANTERN}/nope.png`)).status).toBe(404);

    // Storage down: a clear server error, not a 404 and not a hang.
    storage.failNext(1, 503);
    const down = await fetch(`${srv.url}/storage/v1/object/public/image/${LANTERN}/up.png`);
    expect(down.status).toBe(500);
    // The service-role key never leaves the server.
    expect(srv.logs.join('\n')).not.toContain(KEY);
  });
});
