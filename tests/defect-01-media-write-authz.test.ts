// Defect 1 of issue #14: any signed-in player could overwrite story media (POST .../image/<story>/logo.svg with
// x-upsert: true replaced the art every player sees), with no quota (20 uploads of 10 MB in 2.7 s), and a body that
// merely started like its type was taken. Now only the story's authors (story_authors) and admins (user_roles) write
// its media, each user has a byte quota per 24 hours, and images must decode as what they claim to be.
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api } from '../cli/lib/game-client.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const STORIES = join(import.meta.dirname, '../fixtures/stories');
const LANTERN = '8b800bd3-b107-4b49-81d1-b7a4b8dcbc5a';
const SIEGE_LOGO = 'logo.svg';
let srv: TestServer;

type Person = { id: string; token: string };
async function person(name: string): Promise<Person> {
  const s = await new Api(srv.url).signUp(`${name}-${Date.now()}@example.com`, 'correct horse battery staple');
  return { id: s.user.id, token: s.access_token };
}

function upload(who: Person, path: string, body: Uint8Array, type: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${srv.url}/storage/v1/object/${path}`, { method: 'POST', body, headers: { 'content-type': type, authorization: `Bearer ${who.token}`, ...headers } });
}
const png = (w: number, h: number, color = '#224466'): Promise<Buffer> => sharp({ create: { width: w, height: h, channels: 3, background: color } }).png().toBuffer();
const logo = async (): Promise<Buffer> => Buffer.from(await (await fetch(`${srv.url}/storage/v1/object/public/image/${LANTERN}/${SIEGE_LOGO}`)).arrayBuffer());

beforeAll(async () => {
  srv = await startTestServer({ SEED_STORIES: 'true', STORIES_DIR: STORIES, MEDIA_USER_DAILY_BYTES: String(600 * 1024) });
});
afterAll(async () => srv?.close());

describe("defect 1: only a story's authors and admins write its media, within a quota, with bytes that match", () => {
  it("refuses a fresh player's x-upsert over the story logo (403) and leaves the art as it was", async () => {
    const before = await logo();
    const player = await person('player');
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="red"/></svg>');
    const res = await upload(player, `image/${LANTERN}/${SIEGE_LOGO}`, svg, 'image/svg+xml', { 'x-upsert': 'true' });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { code: 'storage/forbidden' } });
    expect((await logo()).equals(before)).toBe(true);
    const put = await fetch(`${srv.url}/storage/v1/object/image/${LANTERN}/${SIEGE_LOGO}`, { method: 'PUT', body: svg, headers: { 'content-type': 'image/svg+xml', authorization: `Bearer ${player.token}` } });
    expect(put.status).toBe(403);
    expect((await upload(player, `image/${LANTERN}/new-art.png`, await png(4, 4), 'image/png')).status).toBe(403);
  });

  it('lets an author of the story and an admin write, and nobody else', async () => {
    const author = await person('author');
    const admin = await person('admin');
    await srv.services.authors.addAuthor(LANTERN, author.id);
    await srv.services.authors.grantAdmin(admin.id);
    expect((await upload(author, `image/${LANTERN}/by-author.png`, await png(8, 8), 'image/png')).status).toBe(200);
    expect((await upload(admin, `image/${LANTERN}/by-admin.png`, await png(8, 8), 'image/png')).status).toBe(200);
    // Authorship is per story: the author of one story is a stranger to another.
    const siege = (await new Api(srv.url).request<{ id: string; name: string }[]>('GET', '/api/stories')).find((s) => s.id !== LANTERN)?.id ?? '';
    expect((await upload(author, `image/${siege}/elsewhere.png`, await png(8, 8), 'image/png')).status).toBe(403);
    await srv.services.authors.removeAuthor(LANTERN, author.id);
    expect((await upload(author, `image/${LANTERN}/after-removal.png`, await png(8, 8), 'image/png')).status).toBe(403);
  });

  it("caps each user's bytes per 24 hours (429 with Retry-After)", async () => {
    const author = await person('busy');
    await srv.services.authors.addAuthor(LANTERN, author.id);
    const big = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#000' } }).png({ compressionLevel: 0 }).toBuffer();
    expect(big.length).toBeGreaterThan(250 * 1024);
    expect((await upload(author, `image/${LANTERN}/q1.png`, big, 'image/png')).status).toBe(200);
    expect((await upload(author, `image/${LANTERN}/q2.png`, big, 'image/png')).status).toBe(200);
    const third = await upload(author, `image/${LANTERN}/q3.png`, big, 'image/png');
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await third.json()).toMatchObject({ error: { code: 'storage/quota_exceeded' } });
    expect((await fetch(`${srv.url}/storage/v1/object/public/image/${LANTERN}/q3.png`)).status).toBe(404);
  });

  it('refuses an image whose bytes only start like its type (415)', async () => {
    const author = await person('faker');
    await srv.services.authors.addAuthor(LANTERN, author.id);
    const fake = Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), Buffer.from('<html><script>alert(1)</script></html>')]);
    const res = await upload(author, `image/${LANTERN}/fake.png`, fake, 'image/png');
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ error: { code: 'storage/content_mismatch' } });
    const jpegAsPng = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } }).jpeg().toBuffer();
    expect((await upload(author, `image/${LANTERN}/liar.png`, jpegAsPng, 'image/png')).status).toBe(415);
  });
});
