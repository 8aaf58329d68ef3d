// The real server with the fixture stories seeded: their media copied into storage at start, served at the spec's
// URLs, resized at the spec's sizes, safe against path traversal, and uploaded by the story's authors.
import { request as httpRequest } from 'node:http';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueStory } from '../engine/schema/views.js';
import { Api } from '../cli/lib/game-client.js';
import { mediaDir } from '../server/media/storage.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const ROOT = join(import.meta.dirname, '../fixtures/stories');
const LANTERN = '8b800bd3-b107-4b49-81d1-b7a4b8dcbc5a';
const SECRET = 'secret-outside-storage';
let srv: TestServer;
let token: string;

/** Our request for a URL the server built (its origin is PUBLIC_URL, not the test port). */
const local = (u: string): string => {
  const url = new URL(u, srv.url); // root-relative without PUBLIC_URL
  return `${srv.url}${url.pathname}${url.search}`;
};
const get = (path: string, headers: Record<string, string> = {}): Promise<Response> => fetch(`${srv.url}${path}`, { headers });

function upload(path: string, body: Uint8Array | string, type: string, headers: Record<string, string> = {}, method = 'POST'): Promise<Response> {
  return fetch(`${srv.url}/storage/v1/object/${path}`, {
    method, body, headers: { 'content-type': type, ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  });
}

/** A raw request, path sent byte for byte (fetch would normalise '..'). */
function rawGet(path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(srv.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const png = (width: number, height: number, color = '#336699'): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 4, background: color } }).png().toBuffer();

function wav(samples = 800): Buffer {
  const b = Buffer.alloc(44 + samples * 2);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(36 + samples * 2, 4);
  b.write('WAVEfmt ', 8, 'latin1');
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(8000, 24);
  b.writeUInt32LE(16000, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36, 'latin1');
  b.writeUInt32LE(samples * 2, 40);
  return b;
}

beforeAll(async () => {
  srv = await startTestServer({ SEED_STORIES: 'true', STORIES_DIR: ROOT });
  // A file next to the storage folder that no URL may reach.
  writeFileSync(join(srv.config.DATA_DIR, 'secret.txt'), SECRET);
  const api = new Api(srv.url);
  const session = await api.signUp(`author-${Date.now()}@example.com`, 'correct horse battery staple');
  token = session.access_token;
  // Uploads are for the story's authors (and admins): tests/defect-01-media-write-authz.test.ts covers the others.
  await srv.services.authors.addAuthor(LANTERN, session.user.id);
});
afterAll(async () => srv?.close());

describe('seeded story media', () => {
  it('copies every referenced file into image/{storyId}/ at start', () => {
    for (const f of ['logo.svg', 'background.svg', 'sample-quay.svg', 'character-nell.svg', 'place-quay.svg']) {
      expect(existsSync(join(mediaDir(srv.config), 'image', LANTERN, f)), f).toBe(true);
    }
  });

  it("resolves the catalogue's image URLs (GET /api/stories) to images", async () => {
    const stories = (await (await get('/api/stories')).json()) as CatalogueStory[];
    expect(stories.length).toBeGreaterThanOrEqual(2);
    const urls = stories.flatMap((s) => [s.background_image, s.story_logo_image, ...s.sampleImages]);
    expect(urls.every((u) => u.includes('/storage/v1/object/public/image/'))).toBe(true);
    for (const u of urls) {
      const res = await fetch(local(u));
      expect(res.status, u).toBe(200);
      expect(res.headers.get('content-type'), u).toMatch(/^image\//);
      expect(res.headers.get('etag')).toBeTruthy();
      expect(res.headers.get('cache-control')).toContain('max-age');
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
  });

  it("resolves a story's place and character images (GET /api/stories/:id)", async () => {
    const detail = (await (await get(`/api/stories/${LANTERN}`)).json()) as { moments: { place_images: string[]; character_images: string[] }[] };
    const urls = [...new Set(detail.moments.flatMap((m) => [...m.place_images, ...m.character_images]))];
    expect(urls.length).toBeGreaterThan(3);
    for (const u of urls) expect((await fetch(local(u))).status, u).toBe(200);
  });

  it('answers 304 to a matching If-None-Match, 206 to a byte range, and 404 JSON for a missing file', async () => {
    const path = `/storage/v1/object/public/image/${LANTERN}/logo.svg`;
    const first = await get(path);
    const etag = first.headers.get('etag') ?? '';
    expect((await get(path, { 'if-none-match': etag })).status).toBe(304);
    const part = await get(path, { range: 'bytes=0-9' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toMatch(/^bytes 0-9\/\d+$/);
    expect((await part.text()).length).toBe(10);
    expect((await get(path, { range: 'bytes=999999-' })).status).toBe(416);
    const missing = await get(`/storage/v1/object/public/image/${LANTERN}/nothing.png`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: 'not_found' } });
    const head = await fetch(`${srv.url}${path}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('image/svg+xml');
  });
});

describe('resized variants (render/image)', () => {
  const sizes = [
    ['hero', 'background.svg', 1920, 1080, 85],
    ['hero srcset', 'background.svg', 640, 360, 85],
    ['logo', 'logo.svg', 400, 400, 80],
    ['card', 'sample-quay.svg', 800, 600, 95],
    ['card 2x', 'sample-quay.svg', 1600, 1200, 95],
    ['thumbnail', 'character-nell.svg', 80, 80, 85],
    ['place', 'place-quay.svg', 400, 300, 85],
  ] as const;

  it.each(sizes)('%s: %s at %ix%i quality %i is a JPEG of exactly that size', async (_name, file, width, height, quality) => {
    const path = `/storage/v1/render/image/public/image/${LANTERN}/${file}?width=${width}&height=${height}&quality=${quality}&resize=cover`;
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width, height });
    // The second request is served from the on-disk cache: same bytes, same ETag.
    const again = await get(path);
    expect(again.headers.get('etag')).toBe(res.headers.get('etag'));
    expect((await again.arrayBuffer()).byteLength).toBeGreaterThan(0);
    expect((await get(path, { 'if-none-match': res.headers.get('etag') ?? '' })).status).toBe(304);
  });

  it('builds the URLs the server hands out for resized images', async () => {
    const { resizedImageUrl } = await import('../server/media/urls.js');
    const res = await fetch(local(resizedImageUrl(srv.config, LANTERN, 'images/logo.svg', { width: 400, height: 400, quality: 80 })));
    expect(res.status).toBe(200);
    expect(await sharp(Buffer.from(await res.arrayBuffer())).metadata()).toMatchObject({ width: 400, height: 400 });
  });

  it("honours format and fit at the spec's sizes, and refuses anything else", async () => {
    const base = `/storage/v1/render/image/public/image/${LANTERN}/background.svg`;
    const webp = await get(`${base}?width=640&height=360&format=webp`);
    expect(webp.headers.get('content-type')).toBe('image/webp');
    expect(await sharp(Buffer.from(await webp.arrayBuffer())).metadata()).toMatchObject({ format: 'webp', width: 640, height: 360 });
    // contain keeps the 16:9 picture inside a 400x400 box.
    const contain = await sharp(Buffer.from(await (await get(`${base}?width=400&height=400&resize=contain`)).arrayBuffer())).metadata();
    expect(contain).toMatchObject({ width: 400, height: 225 });
    const fill = await sharp(Buffer.from(await (await get(`${base}?width=400&height=300&resize=fill`)).arrayBuffer())).metadata();
    expect(fill).toMatchObject({ width: 400, height: 300 });
    for (const bad of ['quality=0', 'quality=101', 'width=0', 'width=abc', 'resize=stretch', 'format=gif', 'format=png', 'width=9000&height=10']) {
      const res = await get(`${base}?${bad}`);
      expect(res.status, bad).toBe(400);
      expect(await res.json()).toMatchObject({ error: { code: 'validation_error' } });
    }
    for (const odd of ['width=320&height=180', 'width=400&height=400&quality=90', 'width=1920']) {
      const res = await get(`${base}?${odd}`);
      expect(res.status, odd).toBe(400);
      expect(await res.json()).toMatchObject({ error: { code: 'storage/size_not_allowed' } });
    }
    expect((await get(`/storage/v1/render/image/public/image/${LANTERN}/missing.svg?width=80&height=80`)).status).toBe(404);
  });
});

describe('path traversal', () => {
  const attempts = [
    `/storage/v1/object/public/image/${LANTERN}/..%2F..%2F..%2Fsecret.txt`,
    `/storage/v1/object/public/image/${LANTERN}/..%2f..%2f..%2fsecret.txt`,
    `/storage/v1/object/public/image/${LANTERN}/%2E%2E%2F%2E%2E%2F%2E%2E%2Fsecret.txt`,
    `/storage/v1/object/public/image/${LANTERN}/..%5C..%5C..%5Csecret.txt`,
    `/storage/v1/object/public/image/${LANTERN}/%252E%252E%252Fsecret.txt`,
    `/storage/v1/object/public/image/${LANTERN}/logo.svg%00.png`,
    `/storage/v1/object/public/image/${LANTERN}/.render-cache`,
    `/storage/v1/object/public/image/..%2F..%2F/secret.txt`,
    `/storage/v1/object/public/image/..%2F${LANTERN}/logo.svg`,
    `/storage/v1/object/public/..%2F..%2F/${LANTERN}/secret.txt`,
    `/storage/v1/object/public/.render-cache/${LANTERN}/logo.svg`,
    `/storage/v1/object/public/image/${LANTERN}/../../../secret.txt`,
    `/storage/v1/object/public/image/../../secret.txt`,
    `/storage/v1/object/public/image/${LANTERN}/%2e%2e/%2e%2e/%2e%2e/secret.txt`,
    `/storage/v1/object/image/${LANTERN}/..%2F..%2F..%2Fsecret.txt`,
    `/storage/v1/render/image/public/image/${LANTERN}/..%2F..%2F..%2Fsecret.txt?width=10&height=10`,
    `/storage/v1/object/list/image/..%2F..`,
    `/storage/v1/object/list/..%2F..%2F/${LANTERN}`,
  ];

  it.each(attempts)('%s is 400 or 404 and reads nothing outside storage', async (path) => {
    const res = await rawGet(path);
    expect([400, 404]).toContain(res.status);
    expect(res.body).not.toContain(SECRET);
    expect(JSON.parse(res.body)).toHaveProperty('error');
  });

  it('refuses a traversing name on upload too', async () => {
    const res = await upload(`image/${LANTERN}/..%2F..%2F..%2Fsecret.txt`, await png(2, 2), 'image/png');
    expect(res.status).toBe(400);
    expect((await rawGet(`/storage/v1/object/public/image/${LANTERN}/logo.svg`)).body).not.toContain(SECRET);
  });
});

describe('uploads', () => {
  it('requires a signed-in user (401)', async () => {
    const res = await fetch(`${srv.url}/storage/v1/object/image/${LANTERN}/anon.png`, { method: 'POST', body: await png(2, 2), headers: { 'content-type': 'image/png' } });
    expect(res.status).toBe(401);
    const bad = await fetch(`${srv.url}/storage/v1/object/image/${LANTERN}/anon.png`, { method: 'POST', body: await png(2, 2), headers: { 'content-type': 'image/png', authorization: 'Bearer not-a-token' } });
    expect(bad.status).toBe(401);
    expect((await get(`/storage/v1/object/public/image/${LANTERN}/anon.png`)).status).toBe(404);
    // Checked before the body is read: an oversize body without a token is a 401, not a 413.
    const big = await fetch(`${srv.url}/storage/v1/object/image/${LANTERN}/anon.png`, { method: 'POST', body: Buffer.alloc(11 * 1024 * 1024), headers: { 'content-type': 'image/png' } }).catch((e: unknown) => e);
    expect(big).toBeInstanceOf(Response);
    expect((big as Response).status).toBe(401);
  });

  it('stores, serves, lists, refuses to overwrite without x-upsert (409), overwrites with it', async () => {
    const first = await png(64, 48, '#ff0000');
    const res = await upload(`image/${LANTERN}/upload-card.png`, first, 'image/png');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ Key: `image/${LANTERN}/upload-card.png` });
    const served = await get(`/storage/v1/object/public/image/${LANTERN}/upload-card.png`);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(first)).toBe(true);
    // supabase-js download() path.
    expect((await get(`/storage/v1/object/image/${LANTERN}/upload-card.png`)).status).toBe(200);

    const listed = (await (await get(`/storage/v1/object/list/image/${LANTERN}`)).json()) as { name: string; metadata: { size: number; mimetype: string } }[];
    expect(listed.map((o) => o.name)).toEqual(expect.arrayContaining(['logo.svg', 'upload-card.png']));
    expect(listed.find((o) => o.name === 'upload-card.png')?.metadata).toMatchObject({ size: first.length, mimetype: 'image/png' });
    // supabase-js list(): POST with a prefix and a search.
    const searched = await fetch(`${srv.url}/storage/v1/object/list/image`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prefix: LANTERN, search: 'upload-card', limit: 100, offset: 0, sortBy: { column: 'name', order: 'asc' } }) });
    expect(((await searched.json()) as { name: string }[]).map((o) => o.name)).toEqual(['upload-card.png']);
    expect((await (await get(`/storage/v1/object/list/sound/${LANTERN}`)).json())).toEqual([]);

    const render = `/storage/v1/render/image/public/image/${LANTERN}/upload-card.png?width=80&height=80&quality=85`;
    const before = await sharp(Buffer.from(await (await get(render)).arrayBuffer())).stats();

    const again = await upload(`image/${LANTERN}/upload-card.png`, await png(64, 48, '#0000ff'), 'image/png');
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: { code: 'storage/already_exists' } });
    expect((await upload(`image/${LANTERN}/upload-card.png`, await png(64, 48, '#0000ff'), 'image/png', { 'x-upsert': 'false' })).status).toBe(409);

    const second = await png(64, 48, '#0000ff');
    expect((await upload(`image/${LANTERN}/upload-card.png`, second, 'image/png', { 'x-upsert': 'true' })).status).toBe(200);
    expect(Buffer.from(await (await get(`/storage/v1/object/public/image/${LANTERN}/upload-card.png`)).arrayBuffer()).equals(second)).toBe(true);
    // The resized variant follows the new file, not the cached old one.
    const after = await sharp(Buffer.from(await (await get(render)).arrayBuffer())).stats();
    expect(before.channels[2]?.mean ?? 0).toBeLessThan(50);
    expect(after.channels[2]?.mean ?? 0).toBeGreaterThan(200);

    // PUT (supabase-js update()) replaces an existing file only.
    expect((await upload(`image/${LANTERN}/upload-card.png`, first, 'image/png', {}, 'PUT')).status).toBe(200);
    expect((await upload(`image/${LANTERN}/never-uploaded.png`, first, 'image/png', {}, 'PUT')).status).toBe(404);
  });

  it('stores sounds in the sound bucket', async () => {
    expect((await upload(`sound/${LANTERN}/intro.wav`, wav(), 'audio/wav')).status).toBe(200);
    const res = await get(`/storage/v1/object/public/sound/${LANTERN}/intro.wav`);
    expect(res.headers.get('content-type')).toBe('audio/wav');
    expect((await res.arrayBuffer()).byteLength).toBe(wav().length);
    expect((await get(`/storage/v1/render/image/public/sound/${LANTERN}/intro.wav?width=80&height=80`)).status).toBe(400);
  });

  it.each([
    ['text/html', 'image', 'page.html', '<html><script>alert(1)</script></html>'],
    ['application/json', 'image', 'data.json', '{"a":1}'],
    ['image/gif', 'image', 'anim.gif', 'GIF89a'],
    ['multipart/form-data; boundary=x', 'image', 'form.png', '--x--'],
    ['audio/mpeg', 'image', 'song.mp3', 'ID3'],
    ['image/png', 'sound', 'picture.png', '\x89PNG\r\n\x1a\n'],
  ])('refuses %s in the %s bucket (415)', async (type, bucket, file, body) => {
    const res = await upload(`${bucket}/${LANTERN}/${file}`, body, type);
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ error: { code: 'storage/unsupported_type' } });
  });

  it('refuses bytes that are not of their declared type (415) and a mismatched extension (400)', async () => {
    const html = Buffer.from('<html><body>not a picture</body></html>');
    const res = await upload(`image/${LANTERN}/fake.png`, html, 'image/png');
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ error: { code: 'storage/content_mismatch' } });
    expect((await upload(`image/${LANTERN}/real.jpg`, await png(2, 2), 'image/png')).status).toBe(400);
    expect((await upload(`image/${LANTERN}/empty.png`, new Uint8Array(0), 'image/png')).status).toBe(400);
  });

  it('refuses a file over 10 MB (413) and an unknown story (404)', async () => {
    const big = Buffer.alloc(10 * 1024 * 1024 + 1);
    (await png(2, 2)).copy(big);
    const res = await upload(`image/${LANTERN}/huge.png`, big, 'image/png').catch((e: unknown) => e);
    expect(res).toBeInstanceOf(Response);
    expect((res as Response).status).toBe(413);
    expect(await (res as Response).json()).toMatchObject({ error: { code: 'storage/too_large' } });
    expect((await get(`/storage/v1/object/public/image/${LANTERN}/huge.png`)).status).toBe(404);
    // Just under the cap is fine.
    const fits = Buffer.alloc(10 * 1024 * 1024);
    (await png(2, 2)).copy(fits);
    expect((await upload(`image/${LANTERN}/large.png`, fits, 'image/png')).status).toBe(200);
    expect((await upload('image/00000000-0000-4000-8000-000000000000/a.png', await png(2, 2), 'image/png')).status).toBe(404);
  });

  it("keeps the app's JSON and form parsers working beside the upload parser", async () => {
    const res = await fetch(`${srv.url}/api/player-stories`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ blueprint_story_id: LANTERN }) });
    expect(res.status).toBe(201);
    const form = await fetch(`${srv.url}/marketing/waitlist_redeem`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${token}` }, body: 'email=someone-else%40example.com&invite_token=abc' });
    expect(form.status).toBe(403);
  });
});
