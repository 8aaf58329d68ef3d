// export(import(archive)) is the archive, byte for byte, over generated stories with generated media (real PNGs made
// by sharp, real WAVs), through the real server and store: PGlite for the property run, PostgreSQL for one example.
// The media are in the server's stored form: PNG re-encodes to itself (JPEG and WebP are lossy, so re-encoding them
// changes their bytes), sounds are stored as sent.
import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api } from '../cli/lib/game-client.js';
import { packStoryArchive, type ArchiveMedia } from '../engine/story/archive.js';
import { storyArb } from '../engine/story/arbitraries.js';
import { validateStory } from '../engine/story/validate.js';
import { storyFileText } from '../server/media/story-archive.js';
import { postgresDatabase } from './helpers/databases.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const UUID = /\b[0-9a-f]{8}(-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})\b/g;

function wav(samples: number[], rate: number): Buffer {
  const b = Buffer.alloc(44 + samples.length * 2);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(36 + samples.length * 2, 4);
  b.write('WAVEfmt ', 8, 'latin1');
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(rate, 24);
  b.writeUInt32LE(rate * 2, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36, 'latin1');
  b.writeUInt32LE(samples.length * 2, 40);
  samples.forEach((s, i) => b.writeInt16LE(s, 44 + i * 2));
  return b;
}

type MediaSpec = { bucket: 'image'; file: string; w: number; h: number; rgb: [number, number, number] } | { bucket: 'sound'; file: string; samples: number[]; rate: number };
const name = fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,12}$/);
const mediaArb: fc.Arbitrary<MediaSpec[]> = fc.uniqueArray(fc.oneof(
  fc.record({ bucket: fc.constant('image' as const), file: name.map((n) => `${n}.png`), w: fc.integer({ min: 1, max: 24 }), h: fc.integer({ min: 1, max: 24 }), rgb: fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)) }),
  fc.record({ bucket: fc.constant('sound' as const), file: name.map((n) => `${n}.wav`), samples: fc.array(fc.integer({ min: -32768, max: 32767 }), { minLength: 1, maxLength: 400 }), rate: fc.constantFrom(8000, 16000, 22050) }),
), { maxLength: 4, selector: (m) => `${m.bucket}/${m.file}` });

async function media(specs: readonly MediaSpec[]): Promise<ArchiveMedia[]> {
  return Promise.all(specs.map(async (m) => m.bucket === 'image'
    ? { bucket: m.bucket, file: m.file, bytes: await sharp({ create: { width: m.w, height: m.h, channels: 3, background: { r: m.rgb[0], g: m.rgb[1], b: m.rgb[2] } } }).png().toBuffer() }
    : { bucket: m.bucket, file: m.file, bytes: wav(m.samples, m.rate) }));
}

/** Imports then exports through the server; returns both byte strings. */
async function roundTrip(srv: TestServer, token: string, archive: Uint8Array, id: string): Promise<Buffer> {
  const res = await fetch(`${srv.url}/api/stories/archive`, { method: 'POST', body: archive, headers: { 'content-type': 'application/x-tar', authorization: `Bearer ${token}` } });
  expect(res.status, await res.clone().text()).toBe(201);
  const out = await fetch(`${srv.url}/api/stories/${id}/archive`, { headers: { authorization: `Bearer ${token}` } });
  expect(out.status).toBe(200);
  return Buffer.from(await out.arrayBuffer());
}

async function admin(srv: TestServer): Promise<string> {
  const s = await new Api(srv.url).signUp(`admin-${Date.now()}@example.com`, 'correct horse battery staple');
  await srv.services.authors.setRole(s.user.id, 'admin');
  return s.access_token;
}

/** A generated story, valid, under ids of its own (each run imports a new story: ids are unique across stories). */
function storyText(input: unknown, run: number): { text: string; id: string } | null {
  const v = validateStory(input);
  if (!v.ok || !v.story) return null;
  const prefix = (0x10000000 + run).toString(16);
  const text = storyFileText(input).replace(UUID, (_m, rest: string) => `${prefix}${rest}`);
  return { text, id: `${prefix}${v.story.id.slice(8)}` };
}

const validStory = storyArb.filter((x) => validateStory(x).ok);

describe('export(import(archive)) is the archive', () => {
  let srv: TestServer;
  let token: string;
  beforeAll(async () => {
    srv = await startTestServer();
    token = await admin(srv);
  });
  afterAll(async () => srv?.close());

  it('over generated stories and media (PGlite)', async () => {
    let run = 0;
    let checked = 0;
    // The generator also makes invalid stories: import refuses those (tests/story-archive.test.ts).
    await fc.assert(fc.asyncProperty(validStory, mediaArb, async (input, specs) => {
      const s = storyText(input, run++);
      expect(s).not.toBeNull();
      if (!s) return;
      const archive = packStoryArchive({ story: new TextEncoder().encode(s.text), media: await media(specs) });
      expect((await roundTrip(srv, token, archive, s.id)).equals(Buffer.from(archive))).toBe(true);
      checked += 1;
    }), { numRuns: 25 });
    expect(checked).toBe(25);
  }, 300_000);
});

describe('export(import(archive)) on PostgreSQL', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ DATABASE_URL: await postgresDatabase('archive') });
  });
  afterAll(async () => srv?.close());

  it('gives the archive back for one generated story with an image and a sound', async () => {
    const token = await admin(srv);
    const [input] = fc.sample(validStory, { numRuns: 1, seed: 31 });
    const s = storyText(input, 9999);
    expect(s).not.toBeNull();
    if (!s) return;
    const archive = packStoryArchive({ story: new TextEncoder().encode(s.text), media: await media([
      { bucket: 'image', file: 'card.png', w: 7, h: 3, rgb: [10, 200, 30] },
      { bucket: 'sound', file: 'bell.wav', samples: [0, 1000, -1000, 32767, -32768], rate: 8000 },
    ]) });
    expect(srv.services.media.kind).toBe('database');
    expect((await roundTrip(srv, token, archive, s.id)).equals(Buffer.from(archive))).toBe(true);
  });
});
