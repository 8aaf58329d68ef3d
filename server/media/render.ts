// Resized image variants (the render/image path): sharp resizes with the asked fit and encodes JPEG (or WebP / PNG
// when asked). Each variant is computed once and kept on disk under the object's cache folder, keyed by its
// parameters and the source's ETag, so a replaced source never serves a stale variant.
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { z } from 'zod';
import type { Bucket, MediaStorage } from './storage.js';

export const MAX_SIDE = 4096;
/** Variants kept per source file: past this many, the file's cache starts over (bounds disk use). */
export const MAX_VARIANTS = 64;

/** Width and height are capped at 4096; quality is 1..100 (80 by default, as Supabase). */
const Side = z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').transform((n) => Math.min(n, MAX_SIDE));
export const RenderQuery = z.object({
  width: Side.optional(),
  height: Side.optional(),
  quality: z.coerce.number().int('must be a whole number').min(1, 'must be 1..100').max(100, 'must be 1..100').default(80),
  resize: z.enum(['cover', 'contain', 'fill']).default('cover'),
  format: z.enum(['jpeg', 'webp', 'png']).default('jpeg'),
});
export type RenderQuery = z.infer<typeof RenderQuery>;

/** Supabase's `contain` keeps the aspect ratio inside the box without padding: sharp's `inside`. */
const FIT = { cover: 'cover', contain: 'inside', fill: 'fill' } as const;
const TYPES = { jpeg: 'image/jpeg', webp: 'image/webp', png: 'image/png' } as const;

/** The source is not an image sharp can read (a video, a damaged file). */
export class RenderError extends Error {}

export type Rendered = { path: string; contentType: string; size: number; mtime: Date; etag: string };

async function encode(source: Buffer, isSvg: boolean, q: RenderQuery): Promise<Buffer> {
  let density: number | undefined;
  if (isSvg && (q.width || q.height)) {
    // Rasterise vectors at the density the target needs, so an upscaled SVG stays sharp.
    const m = await sharp(source).metadata();
    const scale = Math.max((q.width ?? 0) / (m.width || 1), (q.height ?? 0) / (m.height || 1), 1);
    density = Math.min(72 * scale, 2400);
  }
  let img = sharp(source, { ...(density ? { density } : {}), limitInputPixels: MAX_SIDE * MAX_SIDE * 4 }).rotate();
  if (q.width || q.height) img = img.resize({ width: q.width, height: q.height, fit: FIT[q.resize] });
  switch (q.format) {
    case 'jpeg':
      return img.flatten({ background: '#ffffff' }).jpeg({ quality: q.quality, mozjpeg: true }).toBuffer();
    case 'webp':
      return img.webp({ quality: q.quality }).toBuffer();
    case 'png':
      return img.png({ quality: q.quality }).toBuffer();
  }
}

export class Renderer {
  readonly #storage: MediaStorage;
  /** Variants being computed: concurrent requests for one variant share the work. */
  readonly #inFlight = new Map<string, Promise<Rendered>>();

  constructor(storage: MediaStorage) {
    this.#storage = storage;
  }

  /** The variant's file (computed on first request), or null when the source does not exist. */
  async render(bucket: Bucket, storyId: string, file: string, q: RenderQuery): Promise<Rendered | null> {
    const src = await this.#storage.stat(bucket, storyId, file);
    if (!src) return null;
    const key = createHash('sha256').update(JSON.stringify([src.etag, q.width ?? 0, q.height ?? 0, q.quality, q.resize, q.format])).digest('hex').slice(0, 32);
    const dir = this.#storage.cacheDir(bucket, storyId, file);
    const path = join(dir, `${key}.${q.format}`);
    const contentType = TYPES[q.format];
    // The key covers the source's ETag and every parameter: it identifies the variant's bytes.
    const etag = `"${key}"`;
    try {
      const st = await stat(path);
      return { path, contentType, size: st.size, mtime: st.mtime, etag };
    } catch {
      // not cached yet
    }
    const running = this.#inFlight.get(path);
    if (running) return running;
    const job = (async (): Promise<Rendered> => {
      const source = await readFile(this.#storage.path(bucket, storyId, file));
      const out = await encode(source, src.contentType === 'image/svg+xml', q).catch((e: unknown) => {
        throw new RenderError(`${file} cannot be rendered as an image: ${e instanceof Error ? e.message : String(e)}`);
      });
      await mkdir(dir, { recursive: true });
      const kept = (await readdir(dir)).filter((n) => !n.startsWith('.'));
      if (kept.length >= MAX_VARIANTS) await Promise.all(kept.map((n) => rm(join(dir, n), { force: true })));
      const temp = join(dir, `.tmp-${randomUUID()}`);
      await writeFile(temp, out);
      await rename(temp, path);
      const st = await stat(path);
      return { path, contentType, size: st.size, mtime: st.mtime, etag };
    })().finally(() => this.#inFlight.delete(path));
    this.#inFlight.set(path, job);
    return job;
  }
}
