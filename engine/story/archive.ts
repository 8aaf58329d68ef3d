// A story with its media as one tar archive (POSIX ustar): `story.json` (the story file, byte for byte),
// `media/image/<file>` and `media/sound/<file>`. Packing is deterministic (sorted members, mtime 0, mode 0644, no
// owner), so the same story and media always give the same bytes. Unpacking treats the archive as untrusted: only
// regular files at those paths, each name a plain file name, within the caps; anything else (links, devices,
// directories named other than the layout's, '..', absolute paths, long-name or pax headers, a bad checksum, a
// repeated member, an oversize member, too many members, more bytes than the total cap) is refused as a value, with
// the cap or the member named. Pure: bytes in, bytes out.

export const ARCHIVE_STORY = 'story.json';
export const ARCHIVE_BUCKETS = ['image', 'sound'] as const;
export type ArchiveBucket = (typeof ARCHIVE_BUCKETS)[number];

export type ArchiveMedia = { bucket: ArchiveBucket; file: string; bytes: Uint8Array };
export type StoryArchive = { story: Uint8Array; media: ArchiveMedia[] };
export type ArchiveLimits = { maxMembers: number; maxMemberBytes: number; maxTotalBytes: number };
export type ArchiveError = { code: `archive/${string}`; message: string };
export type Unpacked = { ok: true; archive: StoryArchive } | { ok: false; error: ArchiveError };

const BLOCK = 512;
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

const fmt = (n: number): string => n.toLocaleString('en-US');
const sizeText = (n: number): string =>
  n >= 1024 * 1024 ? `${Math.round((n / 1024 / 1024) * 10) / 10} MB` : n >= 1024 ? `${Math.round((n / 1024) * 10) / 10} KB` : `${n} bytes`;
const fail = (code: string, message: string): { ok: false; error: ArchiveError } => ({ ok: false, error: { code: `archive/${code}`, message } });

/** Whether a media file name is one the archive layout (and storage) accepts. */
export function isArchiveFileName(name: string): boolean {
  return FILE_NAME.test(name) && !name.includes('..');
}

function writeText(block: Uint8Array, at: number, length: number, text: string): void {
  for (let i = 0; i < Math.min(length, text.length); i++) block[at + i] = text.charCodeAt(i) & 0xff;
}
const octal = (n: number, width: number): string => `${n.toString(8).padStart(width - 1, '0')}\0`;

function header(name: string, size: number): Uint8Array {
  const h = new Uint8Array(BLOCK);
  writeText(h, 0, 100, name);
  writeText(h, 100, 8, octal(0o644, 8));
  writeText(h, 108, 8, octal(0, 8));
  writeText(h, 116, 8, octal(0, 8));
  writeText(h, 124, 12, octal(size, 12));
  writeText(h, 136, 12, octal(0, 12));
  writeText(h, 148, 8, '        ');
  h[156] = 0x30; // '0': a regular file
  writeText(h, 257, 6, 'ustar\0');
  writeText(h, 263, 2, '00');
  let sum = 0;
  for (const b of h) sum += b;
  writeText(h, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return h;
}

/** The archive's bytes: story.json first, then the media sorted by bucket and name. */
export function packStoryArchive(a: StoryArchive): Uint8Array {
  const members: { name: string; bytes: Uint8Array }[] = [{ name: ARCHIVE_STORY, bytes: a.story }];
  const media = [...a.media].sort((x, y) => (x.bucket === y.bucket ? (x.file < y.file ? -1 : x.file > y.file ? 1 : 0) : x.bucket < y.bucket ? -1 : 1));
  for (const m of media) {
    if (!isArchiveFileName(m.file)) throw new Error(`archive: ${m.file} is not a plain file name`);
    members.push({ name: `media/${m.bucket}/${m.file}`, bytes: m.bytes });
  }
  const size = members.reduce((n, m) => n + BLOCK + Math.ceil(m.bytes.length / BLOCK) * BLOCK, 2 * BLOCK);
  const out = new Uint8Array(size);
  let at = 0;
  for (const m of members) {
    out.set(header(m.name, m.bytes.length), at);
    at += BLOCK;
    out.set(m.bytes, at);
    at += Math.ceil(m.bytes.length / BLOCK) * BLOCK;
  }
  return out; // the last two blocks stay zero: the end-of-archive marker
}

function text(b: Uint8Array, at: number, length: number): string {
  let s = '';
  for (let i = at; i < at + length; i++) {
    const c = b[i] ?? 0;
    if (c === 0) break;
    s += String.fromCharCode(c);
  }
  return s;
}

function readOctal(b: Uint8Array, at: number, length: number): number | null {
  const s = text(b, at, length).trim();
  return /^[0-7]{1,11}$/.test(s) ? parseInt(s, 8) : null;
}

const TYPES: Record<string, string> = { '1': 'a hard link', '2': 'a symbolic link', '3': 'a character device', '4': 'a block device', '6': 'a FIFO', '7': 'a contiguous file', x: 'a pax header', g: 'a pax global header', L: 'a GNU long name', K: 'a GNU long link name' };

/** Where a member goes, or why it may not be in a story archive. */
function place(name: string): { story: true } | { story: false; bucket: ArchiveBucket; file: string } | { error: string } {
  if (name === ARCHIVE_STORY || name === `./${ARCHIVE_STORY}`) return { story: true };
  const parts = name.replace(/^\.\//, '').split('/');
  if (name.startsWith('/') || name.includes('\\') || parts.some((p) => p === '..')) return { error: `${JSON.stringify(name)} points outside the archive's folder` };
  const [top, bucket, file] = parts;
  if (parts.length !== 3 || top !== 'media' || (bucket !== 'image' && bucket !== 'sound') || file === undefined) {
    return { error: `${JSON.stringify(name)} is not story.json, media/image/<file> or media/sound/<file>` };
  }
  if (!isArchiveFileName(file)) return { error: `${JSON.stringify(name)}: a media file must have a plain name (letters, digits, '.', '_' or '-', at most 100 characters)` };
  return { story: false, bucket, file };
}

/** Reads a story archive within the limits, or says why not (naming the member or the cap). */
export function unpackStoryArchive(bytes: Uint8Array, limits: ArchiveLimits): Unpacked {
  if (bytes.length > limits.maxTotalBytes) return fail('too_large', `The archive is ${sizeText(bytes.length)}: at most ${sizeText(limits.maxTotalBytes)}.`);
  if (bytes.length < BLOCK || bytes.length % BLOCK !== 0) return fail('not_tar', 'Not a tar archive: its size is not a whole number of 512-byte blocks.');
  let story: Uint8Array | null = null;
  const media: ArchiveMedia[] = [];
  const seen = new Set<string>();
  let members = 0;
  let at = 0;
  while (at + BLOCK <= bytes.length) {
    const h = bytes.subarray(at, at + BLOCK);
    if (h.every((b) => b === 0)) break;
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : (h[i] ?? 0);
    if (readOctal(h, 148, 8) !== sum) return fail('not_tar', `Not a tar archive: the header at byte ${fmt(at)} has a bad checksum.`);
    const prefix = text(h, 345, 155);
    const name = prefix === '' ? text(h, 0, 100) : `${prefix}/${text(h, 0, 100)}`;
    const type = String.fromCharCode(h[156] ?? 0);
    const size = readOctal(h, 124, 12);
    if (size === null) return fail('not_tar', `Not a tar archive: ${JSON.stringify(name)} has no readable size.`);
    const body = at + BLOCK;
    const next = body + Math.ceil(size / BLOCK) * BLOCK;
    at = next;
    if (type === '5') {
      // Folders of the layout may be listed; nothing is made of them.
      if (['media', 'media/', 'media/image', 'media/image/', 'media/sound', 'media/sound/', './', '.'].includes(name.replace(/^\.\/(?=.)/, ''))) continue;
      return fail('bad_member', `${JSON.stringify(name)} is a folder the archive layout does not have.`);
    }
    if (type !== '0' && type !== '\0') return fail('bad_member', `${JSON.stringify(name)} is ${TYPES[type] ?? `an entry of type ${JSON.stringify(type)}`}: a story archive holds regular files only.`);
    members += 1;
    if (members > limits.maxMembers) return fail('too_many_members', `The archive has more than ${fmt(limits.maxMembers)} files: at most ${fmt(limits.maxMembers)}.`);
    if (size > limits.maxMemberBytes) return fail('member_too_large', `${JSON.stringify(name)} is ${sizeText(size)}: each file may be at most ${sizeText(limits.maxMemberBytes)}.`);
    if (next > bytes.length) return fail('truncated', `The archive ends inside ${JSON.stringify(name)}.`);
    const where = place(name);
    if ('error' in where) return fail('bad_member', `${where.error}.`);
    const key = where.story ? ARCHIVE_STORY : `${where.bucket}/${where.file}`;
    if (seen.has(key)) return fail('duplicate_member', `${JSON.stringify(name)} appears twice.`);
    seen.add(key);
    const data = bytes.slice(body, body + size);
    if (where.story) story = data;
    else media.push({ bucket: where.bucket, file: where.file, bytes: data });
  }
  if (!story) return fail('no_story', `The archive has no ${ARCHIVE_STORY}.`);
  return { ok: true, archive: { story, media } };
}
