// A story with its media out and back in as one tar archive through the real server: GET /api/stories/:id/archive
// and POST /api/stories/archive. The archive is untrusted: every refusal asserts its status, its message and that
// nothing changed (the story, its media, the catalogue).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api } from '../cli/lib/game-client.js';
import { packStoryArchive, type ArchiveMedia } from '../engine/story/archive.js';
import { member, tar } from '../engine/story/test-tar.js';
import { storyFileText } from '../server/media/story-archive.js';
import { SVG_REFUSED } from '../server/media/verify.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const STORIES = join(import.meta.dirname, '../fixtures/stories');
const LANTERN = '8b800bd3-b107-4b49-81d1-b7a4b8dcbc5a';
const LANTERN_TEXT = storyFileText(JSON.parse(readFileSync(join(STORIES, 'lantern-keeper/story.json'), 'utf8')));
const SIEGE_RAW: { id: string; name: string } = JSON.parse(readFileSync(join(STORIES, 'clockwork-siege/story.json'), 'utf8')) as { id: string; name: string };
const MAX_BYTES = 256 * 1024;
let srv: TestServer;
type Person = { id: string; token: string };
let author: Person;
let player: Person;
let stranger: Person;

async function person(name: string): Promise<Person> {
  const s = await new Api(srv.url).signUp(`${name}-${Date.now()}@example.com`, 'correct horse battery staple');
  return { id: s.user.id, token: s.access_token };
}
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const png = (w: number, h: number, color: string): Promise<Buffer> => sharp({ create: { width: w, height: h, channels: 3, background: color } }).png().toBuffer();
function wav(samples = 400): Buffer {
  const b = Buffer.alloc(44 + samples * 2);
  b.write('RIFFxxxxWAVEfmt ', 0, 'latin1');
  b.writeUInt32LE(36 + samples * 2, 4);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(8000, 24);
  b.writeUInt32LE(16000, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36, 'latin1');
  b.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) b.writeInt16LE(Math.round(6000 * Math.sin(i / 3)), 44 + i * 2);
  return b;
}
const post = (who: Person | null, body: Uint8Array, type = 'application/x-tar'): Promise<Response> =>
  fetch(`${srv.url}/api/stories/archive`, { method: 'POST', body, headers: { 'content-type': type, ...(who ? { authorization: `Bearer ${who.token}` } : {}) } });
const get = (who: Person | null, id: string): Promise<Response> =>
  fetch(`${srv.url}/api/stories/${id}/archive`, { headers: who ? { authorization: `Bearer ${who.token}` } : {} });

/** What a refusal must leave unchanged: the lantern archive as exported, and whether the siege story exists. */
async function snapshot(): Promise<{ lantern: Buffer; siege: boolean; siegeMedia: number }> {
  const res = await get(author, LANTERN);
  return {
    lantern: Buffer.from(await res.arrayBuffer()),
    siege: (await srv.services.stories.getStory(SIEGE_RAW.id)) !== null,
    siegeMedia: (await srv.services.media.list('image', SIEGE_RAW.id)).length,
  };
}

beforeAll(async () => {
  srv = await startTestServer({ STORY_ARCHIVE_MAX_BYTES: String(MAX_BYTES), STORY_ARCHIVE_MAX_FILES: '6' });
  author = await person('author');
  player = await person('player');
  stranger = await person('stranger');
  await srv.services.authors.setRole(author.id, 'author');
  await srv.services.authors.setRole(stranger.id, 'author');
});
afterAll(async () => srv?.close());

describe('story archives', () => {
  let exported: Buffer;

  it('imports a new story with its media for an author (201), who becomes its author', async () => {
    const media: ArchiveMedia[] = [
      { bucket: 'image', file: 'logo.png', bytes: await png(12, 8, '#123456') },
      { bucket: 'sound', file: 'intro.wav', bytes: wav() },
    ];
    const res = await post(author, packStoryArchive({ story: enc(LANTERN_TEXT), media }));
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ id: LANTERN, name: 'The Lantern Keeper', media: 2, replaced: false });
    expect(await srv.services.authors.roleFor(author.id, LANTERN)).toBe('author');
    expect((await srv.services.media.stat('sound', LANTERN, 'intro.wav'))?.size).toBe(wav().length);
  });

  it('exports it as a tar that tar(1) reads: story.json exactly as imported, and every stored file', async () => {
    const res = await get(author, LANTERN);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-tar');
    exported = Buffer.from(await res.arrayBuffer());
    const dir = mkdtempSync(join(tmpdir(), 'looptale-archive-'));
    try {
      writeFileSync(join(dir, 'a.tar'), exported);
      expect(execFileSync('tar', ['-tf', 'a.tar'], { cwd: dir, encoding: 'utf8' }).trim().split('\n')).toEqual(['story.json', 'media/image/logo.png', 'media/sound/intro.wav']);
      execFileSync('tar', ['-xf', 'a.tar'], { cwd: dir });
      expect(readFileSync(join(dir, 'story.json'), 'utf8')).toBe(LANTERN_TEXT);
      expect(readFileSync(join(dir, 'media/sound/intro.wav')).equals(wav())).toBe(true);
      // And an archive tar(1) makes from that folder imports (its folders and ./ prefixes are taken).
      execFileSync('tar', ['-cf', 'b.tar', '--format=ustar', './story.json', './media'], { cwd: dir, stdio: 'ignore' });
      const again = await post(author, readFileSync(join(dir, 'b.tar')));
      expect(again.status).toBe(200);
      expect(await again.json()).toMatchObject({ id: LANTERN, media: 2, replaced: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(Buffer.from(await (await get(author, LANTERN)).arrayBuffer()).equals(exported)).toBe(true);
  });

  it('exports and replaces only for the story\'s authors and admins', async () => {
    expect((await get(null, LANTERN)).status).toBe(401);
    expect((await get(player, LANTERN)).status).toBe(403);
    const res = await get(stranger, LANTERN);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { code: 'story/forbidden', message: "Only the story's authors and admins may export or replace it." } });
    expect((await get(author, '00000000-0000-4000-8000-000000000000')).status).toBe(404);

    const before = await snapshot();
    const other = packStoryArchive({ story: enc(LANTERN_TEXT), media: [{ bucket: 'image', file: 'logo.png', bytes: await png(12, 8, '#ff0000') }] });
    const bad = await post(stranger, other);
    expect(bad.status).toBe(403);
    const anon = await post(null, other);
    expect(anon.status).toBe(401);
    const siege = await post(player, packStoryArchive({ story: enc(storyFileText(SIEGE_RAW)), media: [] }));
    expect(siege.status).toBe(403);
    expect(await siege.json()).toMatchObject({ error: { code: 'story/forbidden', message: 'Only authors and admins may import a new story.' } });
    expect(await snapshot()).toEqual(before);
  });

  const svg = enc('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
  const good = (): Uint8Array => member('story.json', enc(storyFileText(SIEGE_RAW)));
  it.each([
    ['a path out of the folder', () => tar(good(), member('media/image/../../../../etc/x.png', enc('x'))), 400, 'archive/bad_member', '"media/image/../../../../etc/x.png" points outside the archive\'s folder.'],
    ['a symbolic link', () => tar(good(), member('media/image/a.png', new Uint8Array(0), '2', 0, '/etc/passwd')), 400, 'archive/bad_member', '"media/image/a.png" is a symbolic link: a story archive holds regular files only.'],
    ['too many files', () => tar(good(), ...Array.from({ length: 6 }, (_, i) => member(`media/sound/s${i}.wav`, wav()))), 413, 'archive/too_many_members', 'The archive has more than 6 files: at most 6.'],
    ['more bytes than STORY_ARCHIVE_MAX_BYTES', () => tar(good(), member('media/sound/big.wav', new Uint8Array(MAX_BYTES))), 413, 'archive/too_large', 'The archive is larger than 256 KB (STORY_ARCHIVE_MAX_BYTES).'],
    ['an SVG image', () => tar(good(), member('media/image/logo.svg', svg)), 415, 'storage/svg_refused', `media/image/logo.svg: ${SVG_REFUSED}`],
    ['bytes that are not the image they claim', () => tar(good(), member('media/image/logo.png', enc('<html><script>alert(1)</script></html>'))), 415, 'storage/content_mismatch', 'media/image/logo.png: The body is not a image/png file.'],
    ['a sound that does not decode', () => tar(good(), member('media/sound/a.wav', enc('RIFF....WAVEjunk'))), 415, 'storage/content_mismatch', 'media/sound/a.wav: The audio could not be decoded as WAV: no format chunk.'],
    ['a story file with errors', () => tar(member('story.json', enc(storyFileText({ ...SIEGE_RAW, moments: [] })))), 422, 'archive/story_invalid', null],
    ['a story file that is not JSON', () => tar(member('story.json', enc('{"id":'))), 400, 'archive/story_not_json', null],
  ] as const)('refuses %s and changes nothing', async (_what, make, status, code, message) => {
    const before = await snapshot();
    const res = await post(author, make());
    expect(res.status).toBe(status);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe(code);
    if (message !== null) expect(body.error.message).toBe(message);
    else expect(body.error.message).toMatch(/^story\.json /);
    expect(await snapshot()).toEqual(before);
    expect(before.siege).toBe(false);
  });
});
