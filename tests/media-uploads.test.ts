// What an upload becomes before it is stored: images re-encoded by sharp (the stored bytes are sharp's output, never
// the uploaded ones), SVG refused, sounds checked by decoding; and the stored-bytes quotas per story
// (MEDIA_STORY_BYTES) and per author (MEDIA_AUTHOR_BYTES). Every refusal asserts its status, its message and that
// nothing was stored.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api } from '../cli/lib/game-client.js';
import { validateStory } from '../engine/story/validate.js';
import { readAll } from '../server/media/store.js';
import { SVG_REFUSED } from '../server/media/verify.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const STORIES = join(import.meta.dirname, '../fixtures/stories');
const STORY_LIMIT = 16 * 1024;
const AUTHOR_LIMIT = 20 * 1024;
let srv: TestServer;
let token: string;
let authorId: string;
let a: string;
let b: string;

function upload(path: string, body: Uint8Array | string, type: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${srv.url}/storage/v1/object/${path}`, { method: 'POST', body, headers: { 'content-type': type, authorization: `Bearer ${token}`, ...headers } });
}
const kb = (n: number): string => (Math.round((n / 1024) * 10) / 10).toString();
/** Bytes a story's media take in both buckets. */
async function bytesOf(story: string): Promise<number> {
  let n = 0;
  for (const bucket of ['image', 'sound'] as const) for (const o of await srv.services.media.list(bucket, story)) n += o.size;
  return n;
}
const stored = (bucket: 'image' | 'sound', story: string, file: string): Promise<Buffer | null> => readAll(srv.services.media, bucket, story, file);

/** A PNG of seeded noise: it does not compress, so its size is about 3 bytes a pixel, and sharp re-encodes it to itself. */
function noisePng(side: number, seed: number): Promise<Buffer> {
  const px = Buffer.alloc(side * side * 3);
  let x = seed;
  for (let i = 0; i < px.length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    px[i] = x >>> 24;
  }
  return sharp(px, { raw: { width: side, height: side, channels: 3 } }).png().toBuffer();
}

function wav(samples = 800): Buffer {
  const h = Buffer.alloc(44 + samples * 2);
  h.write('RIFF', 0, 'latin1');
  h.writeUInt32LE(36 + samples * 2, 4);
  h.write('WAVEfmt ', 8, 'latin1');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(8000, 24);
  h.writeUInt32LE(16000, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'latin1');
  h.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) h.writeInt16LE(Math.round(8000 * Math.sin(i / 5)), 44 + i * 2);
  return h;
}

async function importFixture(folder: string): Promise<string> {
  const raw: unknown = JSON.parse(readFileSync(join(STORIES, folder, 'story.json'), 'utf8'));
  const v = validateStory(raw);
  if (!v.story) throw new Error(`fixture ${folder} does not validate`);
  await srv.services.stories.importStory(v.story, raw);
  return v.story.id;
}

beforeAll(async () => {
  // No seeding: the stories start with no media, so the quotas count only what these tests store.
  srv = await startTestServer({ MEDIA_STORY_BYTES: String(STORY_LIMIT), MEDIA_AUTHOR_BYTES: String(AUTHOR_LIMIT) });
  a = await importFixture('lantern-keeper');
  b = await importFixture('clockwork-siege');
  const session = await new Api(srv.url).signUp(`uploader-${Date.now()}@example.com`, 'correct horse battery staple');
  token = session.access_token;
  authorId = session.user.id;
  await srv.services.authors.addAuthor(a, authorId);
  await srv.services.authors.addAuthor(b, authorId);
});
afterAll(async () => srv?.close());

describe('images are re-encoded by sharp', () => {
  it('stores sharp\'s PNG, not the uploaded bytes: trailing bytes after the image are gone', async () => {
    const png = await sharp({ create: { width: 6, height: 4, channels: 3, background: '#204060' } }).png({ compressionLevel: 0 }).toBuffer();
    const sent = Buffer.concat([png, Buffer.from('<script>alert(1)</script>')]);
    const res = await upload(`image/${a}/polyglot.png`, sent, 'image/png');
    expect(res.status).toBe(200);
    const kept = await stored('image', a, 'polyglot.png');
    expect(kept).not.toBeNull();
    expect(kept?.equals(sent)).toBe(false);
    expect(kept?.includes('<script>')).toBe(false);
    expect(kept?.equals(await sharp(sent).rotate().png().toBuffer())).toBe(true);
    expect(await sharp(kept ?? Buffer.alloc(0)).metadata()).toMatchObject({ format: 'png', width: 6, height: 4 });
  });

  it('drops a JPEG\'s metadata and applies its orientation', async () => {
    const sent = await sharp({ create: { width: 8, height: 4, channels: 3, background: '#aa3300' } })
      .jpeg().withMetadata({ orientation: 6, exif: { IFD0: { Copyright: 'uploader secret' } } }).toBuffer();
    expect((await sharp(sent).metadata()).exif).toBeDefined();
    expect((await upload(`image/${a}/turned.jpg`, sent, 'image/jpeg')).status).toBe(200);
    const kept = await stored('image', a, 'turned.jpg');
    const meta = await sharp(kept ?? Buffer.alloc(0)).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 4, height: 8 });
    expect(meta.exif).toBeUndefined();
    expect(kept?.includes('uploader secret')).toBe(false);
  });

  it.each([
    ['image/svg+xml', 'art.svg'],
    ['image/png', 'art.svg'],
  ])('refuses SVG (%s as %s) with 415 and stores nothing', async (type, file) => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><script>alert(1)</script></svg>';
    const res = await upload(`image/${a}/${file}`, svg, type);
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ error: { code: 'storage/svg_refused', message: SVG_REFUSED } });
    expect(await stored('image', a, file)).toBeNull();
  });

  it('refuses an image whose pixels do not decode (415) and stores nothing', async () => {
    const png = await noisePng(16, 7);
    const cut = png.subarray(0, Math.floor(png.length / 2));
    const res = await upload(`image/${a}/cut.png`, cut, 'image/png');
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ error: { code: 'storage/content_mismatch', message: 'The body is not a readable image/png image.' } });
    expect(await stored('image', a, 'cut.png')).toBeNull();
  });
});

describe('sounds are checked by decoding', () => {
  it('stores a WAV that decodes, as sent', async () => {
    expect((await upload(`sound/${a}/tone.wav`, wav(), 'audio/wav')).status).toBe(200);
    expect((await stored('sound', a, 'tone.wav'))?.equals(wav())).toBe(true);
  });

  it.each([
    ['a WAV header over no format chunk', 'bad.wav', 'audio/wav', Buffer.concat([Buffer.from('RIFF\x24\x00\x00\x00WAVEjunk\x04\x00\x00\x00abcd', 'latin1')]), 'The audio could not be decoded as WAV: no format chunk.'],
    ['a WAV with no samples', 'silent.wav', 'audio/wav', wav(0), 'The WAV file holds no audio.'],
    ['an ID3 tag over a web page', 'page.mp3', 'audio/mpeg', Buffer.concat([Buffer.from('ID3\x04\x00\x00\x00\x00\x00\x00', 'latin1'), Buffer.from('<html><script>alert(1)</script></html>'.repeat(20))]), 'The audio could not be decoded as MP3.'],
  ])('refuses %s (415) and stores nothing', async (_what, file, type, body, message) => {
    const res = await upload(`sound/${a}/${file}`, body, type);
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ error: { code: 'storage/content_mismatch', message } });
    expect(await stored('sound', a, file)).toBeNull();
  });

  it('refuses OGG, which nothing here can decode (415), and stores nothing', async () => {
    const res = await upload(`sound/${a}/intro.ogg`, Buffer.from('OggS\x00\x02', 'latin1'), 'audio/ogg');
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ error: { code: 'storage/unsupported_type', message: 'The sound bucket takes audio/mpeg, audio/wav; got audio/ogg.' } });
    expect(await stored('sound', a, 'intro.ogg')).toBeNull();
  });
});

describe('stored-bytes quotas', () => {
  it('refuses (413) the upload that would take a story past MEDIA_STORY_BYTES, naming the limit; replacing a file counts its new size', async () => {
    const base = await bytesOf(a); // what the tests above stored
    const one = await noisePng(40, 1);
    const two = await noisePng(40, 2);
    const three = await noisePng(40, 3);
    expect(base + one.length + two.length).toBeLessThanOrEqual(STORY_LIMIT);
    expect(base + one.length + two.length + three.length).toBeGreaterThan(STORY_LIMIT);
    expect((await upload(`image/${a}/one.png`, one, 'image/png')).status).toBe(200);
    expect((await upload(`image/${a}/two.png`, two, 'image/png')).status).toBe(200);
    expect(await srv.services.media.stat('image', a, 'one.png')).toMatchObject({ size: one.length });

    const res = await upload(`image/${a}/three.png`, three, 'image/png');
    expect(res.status).toBe(413);
    const total = kb(base + one.length + two.length + three.length);
    expect(await res.json()).toMatchObject({ error: { code: 'storage/story_quota', message: `The story's media would take ${total} KB: a story may store at most 16 KB of media (MEDIA_STORY_BYTES).` } });
    expect(await stored('image', a, 'three.png')).toBeNull();

    // Replacing two.png with a file of the same size fits: the old bytes are not counted twice.
    const twoAgain = await noisePng(40, 4);
    expect(twoAgain.length).toBe(two.length);
    expect((await upload(`image/${a}/two.png`, twoAgain, 'image/png', { 'x-upsert': 'true' })).status).toBe(200);
    expect((await stored('image', a, 'two.png'))?.equals(twoAgain)).toBe(true);
  });

  it("refuses (413) the upload that would take an author's stories past MEDIA_AUTHOR_BYTES, naming the limit", async () => {
    const inA = await bytesOf(a);
    const four = await noisePng(40, 5);
    expect((await upload(`image/${b}/four.png`, four, 'image/png')).status).toBe(200);
    const five = await noisePng(40, 6);
    expect(inA + four.length).toBeLessThanOrEqual(AUTHOR_LIMIT);
    expect(inA + four.length + five.length).toBeGreaterThan(AUTHOR_LIMIT);
    expect(four.length + five.length).toBeLessThanOrEqual(STORY_LIMIT);
    const res = await upload(`image/${b}/five.png`, five, 'image/png');
    expect(res.status).toBe(413);
    const total = kb(inA + four.length + five.length);
    expect(await res.json()).toMatchObject({ error: { code: 'storage/author_quota', message: `Your stories' media would take ${total} KB: an author may store at most 20 KB of media across their stories (MEDIA_AUTHOR_BYTES).` } });
    expect(await stored('image', b, 'five.png')).toBeNull();
    // Nothing was charged to the daily quota for the refused uploads either.
    const rows = await srv.services.db.query<{ file: string }>('SELECT file FROM looptale_private.media_uploads WHERE user_id = $1', [authorId]);
    expect(rows.rows.map((r) => r.file)).not.toContain('five.png');
    expect(rows.rows.map((r) => r.file)).not.toContain('three.png');
  });
});
