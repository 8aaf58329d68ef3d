// Local media storage in Supabase Storage's layout: MEDIA_DIR/{bucket}/{storyId}/{file}, buckets `image` and `sound`.
// The only code that touches these files: every path is built here from validated segments and checked to stay
// inside the storage directory, so a request can never name a file outside it.
import { randomUUID } from 'node:crypto';
import { createReadStream, type Stats } from 'node:fs';
import { link, mkdir, readdir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { z } from 'zod';
import type { Config } from '../config.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../db/private-files.js';
import type { ByteRange, MediaStore } from './store.js';
import { SVG_REFUSED } from './verify.js';

export const BUCKETS = ['image', 'sound'] as const;
export const Bucket = z.enum(BUCKETS);
export type Bucket = z.infer<typeof Bucket>;

/** One path segment: letters, digits, '.', '_' and '-', starting with a letter or digit, no '..'. */
export const FileName = z.string()
  .max(100, 'must be at most 100 characters')
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "must be a plain file name (letters, digits, '.', '_' or '-')")
  .refine((s) => !s.includes('..'), "must not contain '..'");

export const StoryId = z.uuid({ message: 'must be a story id (UUID)' });

/** Served content types by extension. */
const SERVED_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.png': 'image/png', '.webp': 'image/webp', '.svg': 'image/svg+xml',
  '.gif': 'image/gif', '.mp4': 'video/mp4', '.mp3': 'audio/mpeg', '.wav': 'audio/wav', '.ogg': 'audio/ogg',
};

/**
 * What each bucket accepts on upload: canonical type -> its file extensions and how its bytes start. SVG is served
 * (seeded fixture media) but never accepted (it can carry script); OGG is not accepted because no decoder here can
 * check it.
 */
type Accepted = { extensions: readonly string[]; sniff: (b: Buffer) => boolean };
const ascii = (b: Buffer, at: number, s: string): boolean => b.subarray(at, at + s.length).toString('latin1') === s;
const ACCEPTED: Record<Bucket, Record<string, Accepted>> = {
  image: {
    'image/jpeg': { extensions: ['.jpg', '.jpeg'], sniff: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
    'image/png': { extensions: ['.png'], sniff: (b) => ascii(b, 0, '\x89PNG\r\n\x1a\n') },
    'image/webp': { extensions: ['.webp'], sniff: (b) => ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP') },
  },
  sound: {
    'audio/mpeg': { extensions: ['.mp3'], sniff: (b) => ascii(b, 0, 'ID3') || (b[0] === 0xff && ((b[1] ?? 0) & 0xe0) === 0xe0) },
    'audio/wav': { extensions: ['.wav'], sniff: (b) => ascii(b, 0, 'RIFF') && ascii(b, 8, 'WAVE') },
  },
};
/** Other names clients send for the same types. */
const ALIASES: Record<string, string> = {
  'image/jpg': 'image/jpeg', 'audio/mp3': 'audio/mpeg', 'audio/x-wav': 'audio/wav', 'audio/wave': 'audio/wav', 'audio/vnd.wave': 'audio/wav',
};

export function acceptedTypes(bucket: Bucket): string[] {
  return Object.keys(ACCEPTED[bucket]);
}

export function contentTypeOf(file: string): string {
  return SERVED_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

export type UploadCheck = { ok: true; type: string } | { ok: false; status: 400 | 415; code: string; message: string };

/** Whether a bucket takes this content type, under this file name, with these bytes. */
export function checkUpload(bucket: Bucket, file: string, contentType: string | undefined, body: Buffer): UploadCheck {
  const raw = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const type = ALIASES[raw] ?? raw;
  const accepted = ACCEPTED[bucket][type];
  if (bucket === 'image' && (type === 'image/svg+xml' || extname(file).toLowerCase() === '.svg')) {
    return { ok: false, status: 415, code: 'storage/svg_refused', message: SVG_REFUSED };
  }
  if (!accepted) {
    const hint = raw.startsWith('multipart/') ? ' Send the file itself as the body (multipart forms are not accepted).' : '';
    return { ok: false, status: 415, code: 'storage/unsupported_type', message: `The ${bucket} bucket takes ${acceptedTypes(bucket).join(', ')}; got ${raw || 'no content type'}.${hint}` };
  }
  if (!accepted.extensions.includes(extname(file).toLowerCase())) {
    return { ok: false, status: 400, code: 'storage/extension_mismatch', message: `A ${type} file must be named *${accepted.extensions.join(' or *')}.` };
  }
  if (!accepted.sniff(body)) return { ok: false, status: 415, code: 'storage/content_mismatch', message: `The body is not a ${type} file.` };
  return { ok: true, type };
}

export type StoredObject = { name: string; size: number; mtime: Date; contentType: string; etag: string };

export function etagOf(st: Pick<Stats, 'size' | 'mtimeMs'>): string {
  return `"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`;
}

/** The disk store (MEDIA_DIR): one machine's files. */
export class MediaStorage implements MediaStore {
  readonly kind = 'disk' as const;
  /** Absolute storage directory. */
  readonly root: string;
  readonly cacheRoot: string;

  constructor(dir: string) {
    this.root = resolve(dir);
    this.cacheRoot = join(this.root, '.render-cache');
  }

  /** The absolute path of an object (or of a story's folder when `file` is omitted); throws on a bad segment (a bug). */
  path(bucket: Bucket, storyId: string, file?: string): string {
    Bucket.parse(bucket);
    StoryId.parse(storyId);
    if (file !== undefined) FileName.parse(file);
    const p = resolve(this.root, bucket, storyId, ...(file === undefined ? [] : [file]));
    if (!p.startsWith(this.root + sep)) throw new Error(`media: ${p} is outside ${this.root}`);
    return p;
  }

  async stat(bucket: Bucket, storyId: string, file: string): Promise<StoredObject | null> {
    try {
      const st = await stat(this.path(bucket, storyId, file));
      if (!st.isFile()) return null;
      return { name: file, size: st.size, mtime: st.mtime, contentType: contentTypeOf(file), etag: etagOf(st) };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
  }

  async read(bucket: Bucket, storyId: string, file: string, range?: ByteRange): Promise<ReturnType<typeof createReadStream> | null> {
    if (!(await this.stat(bucket, storyId, file))) return null;
    return createReadStream(this.path(bucket, storyId, file), range ?? {});
  }

  /** The story's files, by name. */
  async list(bucket: Bucket, storyId: string): Promise<StoredObject[]> {
    let names: string[];
    try {
      names = await readdir(this.path(bucket, storyId));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw e;
    }
    const out: StoredObject[] = [];
    for (const name of names.sort()) {
      if (!FileName.safeParse(name).success) continue;
      const o = await this.stat(bucket, storyId, name);
      if (o) out.push(o);
    }
    return out;
  }

  /** Story ids that have a folder in the bucket. */
  async stories(bucket: Bucket): Promise<string[]> {
    try {
      return (await readdir(join(this.root, bucket), { withFileTypes: true }))
        .filter((d) => d.isDirectory() && StoryId.safeParse(d.name).success).map((d) => d.name).sort();
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw e;
    }
  }

  /**
   * Stores bytes: written to a temporary file, then linked in place (fails with 'exists' when the object exists and
   * `upsert` is off, even under concurrent uploads) or renamed over it (upsert). Readers never see a partial file.
   */
  async put(bucket: Bucket, storyId: string, file: string, body: Buffer, upsert: boolean): Promise<'created' | 'replaced' | 'exists'> {
    const target = this.path(bucket, storyId, file);
    await mkdir(this.path(bucket, storyId), { recursive: true, mode: PRIVATE_DIR_MODE });
    const temp = join(this.path(bucket, storyId), `.upload-${randomUUID()}`);
    await writeFile(temp, body, { flag: 'wx', mode: PRIVATE_FILE_MODE });
    try {
      if (!upsert) {
        try {
          await link(temp, target);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === 'EEXIST') return 'exists';
          throw e;
        }
        return 'created';
      }
      const existed = (await this.stat(bucket, storyId, file)) !== null;
      await rename(temp, target);
      await rm(join(this.cacheRoot, bucket, storyId, file), { recursive: true, force: true });
      return existed ? 'replaced' : 'created';
    } finally {
      await unlink(temp).catch(() => undefined);
    }
  }
}

export function mediaDir(config: Config): string {
  return config.MEDIA_DIR ?? join(config.DATA_DIR, 'media');
}
