import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { packStoryArchive, unpackStoryArchive, type ArchiveLimits, type StoryArchive } from './archive.js';
import { member, tar } from './test-tar.js';

const LIMITS: ArchiveLimits = { maxMembers: 20, maxMemberBytes: 4096, maxTotalBytes: 64 * 1024 };
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

const STORY = member('story.json', enc('{"id":"x"}\n'));

const fileName = fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,20}$/).filter((s) => !s.includes('..'));
const archive: fc.Arbitrary<StoryArchive> = fc.record({
  story: fc.uint8Array({ maxLength: 2000 }),
  media: fc.uniqueArray(fc.record({ bucket: fc.constantFrom('image' as const, 'sound' as const), file: fileName, bytes: fc.uint8Array({ maxLength: 1500 }) }), { maxLength: 6, selector: (m) => `${m.bucket}/${m.file}` }),
});
const key = (m: { bucket: string; file: string }): string => `${m.bucket}/${m.file}`;
const sorted = (a: StoryArchive): StoryArchive => ({ story: a.story, media: [...a.media].sort((x, y) => (key(x) < key(y) ? -1 : 1)) });

describe('story archives', () => {
  it('unpacks what it packs, and packs the same archive to the same bytes', () => {
    fc.assert(fc.property(archive, (a) => {
      const bytes = packStoryArchive(a);
      const back = unpackStoryArchive(bytes, { maxMembers: 10, maxMemberBytes: 2000, maxTotalBytes: 1 << 20 });
      expect(back.ok).toBe(true);
      if (!back.ok) return;
      expect(back.archive.story).toEqual(a.story);
      expect(back.archive.media).toEqual(sorted(a).media);
      expect(packStoryArchive(back.archive)).toEqual(bytes);
    }), { numRuns: 200 });
  });

  it.each([
    ['a parent-folder path', tar(STORY, member('media/image/../../../etc/passwd', enc('x'))), 'archive/bad_member', '"media/image/../../../etc/passwd" points outside the archive\'s folder.'],
    ['an absolute path', tar(STORY, member('/etc/cron.d/evil', enc('x'))), 'archive/bad_member', '"/etc/cron.d/evil" points outside the archive\'s folder.'],
    ['a backslash path', tar(STORY, member('media\\image\\a.png', enc('x'))), 'archive/bad_member', '"media\\\\image\\\\a.png" points outside the archive\'s folder.'],
    ['a symbolic link', tar(STORY, member('media/image/a.png', new Uint8Array(0), '2', 0, '/etc/passwd')), 'archive/bad_member', '"media/image/a.png" is a symbolic link: a story archive holds regular files only.'],
    ['a hard link', tar(STORY, member('media/image/a.png', new Uint8Array(0), '1', 0, 'story.json')), 'archive/bad_member', '"media/image/a.png" is a hard link: a story archive holds regular files only.'],
    ['a pax header', tar(member('PaxHeader', enc('30 path=../../x\n'), 'x'), STORY), 'archive/bad_member', '"PaxHeader" is a pax header: a story archive holds regular files only.'],
    ['a file outside the layout', tar(STORY, member('notes/readme.txt', enc('hi'))), 'archive/bad_member', '"notes/readme.txt" is not story.json, media/image/<file> or media/sound/<file>.'],
    ['a hidden file name', tar(STORY, member('media/image/.htaccess', enc('hi'))), 'archive/bad_member', '"media/image/.htaccess": a media file must have a plain name (letters, digits, \'.\', \'_\' or \'-\', at most 100 characters).'],
    ['an oversize member', tar(STORY, member('media/sound/a.wav', new Uint8Array(4097))), 'archive/member_too_large', '"media/sound/a.wav" is 4 KB: each file may be at most 4 KB.'],
    ['a member that says it is larger than the archive', tar(STORY, member('media/sound/a.wav', new Uint8Array(10), '0', 4000)), 'archive/truncated', 'The archive ends inside "media/sound/a.wav".'],
    ['too many members', tar(STORY, ...Array.from({ length: 20 }, (_, i) => member(`media/image/f${i}.png`, enc('x')))), 'archive/too_many_members', 'The archive has more than 20 files: at most 20.'],
    ['a repeated member', tar(STORY, member('media/image/a.png', enc('x')), member('media/image/a.png', enc('y'))), 'archive/duplicate_member', '"media/image/a.png" appears twice.'],
    ['no story.json', tar(member('media/image/a.png', enc('x'))), 'archive/no_story', 'The archive has no story.json.'],
    ['more bytes than the total cap', new Uint8Array(64 * 1024 + 512), 'archive/too_large', 'The archive is 64.5 KB: at most 64 KB.'],
    ['not a tar file', enc('{"id":"x"}'), 'archive/not_tar', 'Not a tar archive: its size is not a whole number of 512-byte blocks.'],
  ])('refuses %s, naming it', (_what, bytes, code, message) => {
    expect(unpackStoryArchive(bytes, LIMITS)).toEqual({ ok: false, error: { code, message } });
  });

  it('refuses a header with a bad checksum', () => {
    const bad = tar(STORY);
    bad[0] = 0x53; // 's'ory.json: the checksum no longer matches
    expect(unpackStoryArchive(bad, LIMITS)).toEqual({ ok: false, error: { code: 'archive/not_tar', message: 'Not a tar archive: the header at byte 0 has a bad checksum.' } });
  });

  it('takes the layout\'s folders as members of an archive made by tar(1)', () => {
    const ok = unpackStoryArchive(tar(member('./', new Uint8Array(0), '5'), member('./story.json', enc('{}')), member('./media/', new Uint8Array(0), '5'), member('./media/image/', new Uint8Array(0), '5'), member('./media/image/a.png', enc('x'))), LIMITS);
    expect(ok.ok && ok.archive.media.map((m) => m.file)).toEqual(['a.png']);
  });
});
