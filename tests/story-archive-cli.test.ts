// `looptale story import FILE.tar` and `looptale story export ID --output FILE.tar`, run as the real command: a story
// with its media in and out of the embedded database and the media store, byte for byte; a bad archive changes nothing.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { packStoryArchive } from '../engine/story/archive.js';
import { member, tar } from '../engine/story/test-tar.js';
import { storyFileText } from '../server/media/story-archive.js';

const ROOT = join(import.meta.dirname, '..');
const LANTERN = '8b800bd3-b107-4b49-81d1-b7a4b8dcbc5a';
const TEXT = storyFileText(JSON.parse(readFileSync(join(ROOT, 'fixtures/stories/lantern-keeper/story.json'), 'utf8')));
const dir = mkdtempSync(join(tmpdir(), 'looptale-archive-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Run = { code: number; stdout: string; stderr: string };
function looptale(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/looptale.js', ...args], { cwd: ROOT }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe('looptale story import/export with a .tar', () => {
  it('refuses an archive with a symbolic link (exit 1, named) and imports nothing', async () => {
    const bad = join(dir, 'bad.tar');
    writeFileSync(bad, tar(member('story.json', new TextEncoder().encode(TEXT)), member('media/image/logo.png', new Uint8Array(0), '2', 0, '/etc/passwd')));
    const r = await looptale('story', 'import', bad, '--data-dir', join(dir, 'db'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${bad}: "media/image/logo.png" is a symbolic link: a story archive holds regular files only.`);
    const e = await looptale('story', 'export', LANTERN, '--data-dir', join(dir, 'db'), '--output', join(dir, 'none.tar'));
    expect(e.code).toBe(1);
  });

  it('imports a story with its media and exports the same bytes', async () => {
    const logo = await sharp({ create: { width: 9, height: 5, channels: 3, background: '#305070' } }).png().toBuffer();
    const archive = packStoryArchive({ story: new TextEncoder().encode(TEXT), media: [{ bucket: 'image', file: 'logo.png', bytes: logo }] });
    const file = join(dir, 'lantern.tar');
    writeFileSync(file, archive);
    const i = await looptale('story', 'import', file, '--data-dir', join(dir, 'db'));
    expect(i.stderr).toBe('');
    expect(i.code).toBe(0);
    expect(i.stdout).toMatch(/^Imported "The Lantern Keeper" \(8b800bd3-b107-4b49-81d1-b7a4b8dcbc5a\) into .* with 1 media file/);
    const out = join(dir, 'out.tar');
    const e = await looptale('story', 'export', LANTERN, '--data-dir', join(dir, 'db'), '--output', out);
    expect(e.code).toBe(0);
    expect(e.stderr).toBe(`Wrote ${out} (story.json and 1 media file)\n`);
    expect(readFileSync(out).equals(Buffer.from(archive))).toBe(true);
  });
});
