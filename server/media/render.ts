// Resized image variants (the render/image path). Only the spec's sizes are rendered (each at its own quality; more
// with MEDIA_RENDER_SIZES), as JPEG or WebP, with the asked fit: a bounded set of variants per file, each computed
// once and kept on disk under the object's cache folder, keyed by its parameters and the source's ETag (a replaced
// source never serves a stale variant). Renders run at most RENDER_CONCURRENCY at once behind a bounded queue; a
// request past the queue is told to come back (503), and the caller charges fresh renders (cache misses) to the client.
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { z } from 'zod';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../db/private-files.js';
import type { RenderSize } from './render-sizes.js';
import type { Bucket } from './storage.js';
import { readAll, variantDir, type MediaStore } from './store.js';
import { MAX_UPLOAD_PIXELS } from './verify.js';

const Side = z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').max(4096, 'must be at most 4096');
export const RenderQuery = z.object({
  width: Side.optional(),
  height: Side.optional(),
  quality: z.coerce.number().int('must be a whole number').min(1, 'must be 1..100').max(100, 'must be 1..100').optional(),
  resize: z.enum(['cover', 'contain', 'fill']).default('cover'),
  format: z.enum(['jpeg', 'webp']).default('jpeg'),
});
export type RenderQuery = z.infer<typeof RenderQuery>;
export type Variant = { width: number; height: number; quality: number; resize: RenderQuery['resize']; format: RenderQuery['format'] };

/** The variant a query asks for when it is one of `sizes` (quality defaults to the size's), else why not. */
export function variantOf(q: RenderQuery, sizes: readonly RenderSize[]): { ok: true; variant: Variant } | { ok: false; message: string } {
  const size = sizes.find((s) => s.width === q.width && s.height === q.height && (q.quality === undefined || q.quality === s.quality));
  if (!size) {
    const list = sizes.map((s) => `${s.width}x${s.height}@${s.quality}`).join(', ');
    return { ok: false, message: `Only these sizes are rendered (width x height @ quality): ${list}. Give width and height; quality defaults to the size's.` };
  }
  return { ok: true, variant: { width: size.width, height: size.height, quality: size.quality, resize: q.resize, format: q.format } };
}

/** Supabase's `contain` keeps the aspect ratio inside the box without padding: sharp's `inside`. */
const FIT = { cover: 'cover', contain: 'inside', fill: 'fill' } as const;
const TYPES = { jpeg: 'image/jpeg', webp: 'image/webp' } as const;

/** The source is not an image sharp can read (a video, a damaged file). */
export class RenderError extends Error {}
/** The queue is full: come back in a moment. */
export class RenderBusy extends Error {}
/** The caller refused to pay for a fresh render (its budget is spent). */
export class RenderRefused extends Error {}

export type Rendered = { path: string; contentType: string; size: number; mtime: Date; etag: string };
export type RenderStats = { running: number; queued: number; peakRunning: number; rendered: number; cacheHits: number; busy: number };
export type RenderLimits = { concurrency: number; queue: number; sizes: readonly RenderSize[] };

async function encode(source: Buffer, isSvg: boolean, v: Variant): Promise<Buffer> {
  let density: number | undefined;
  if (isSvg) {
    // Rasterise vectors at the density the target needs, so an upscaled SVG stays sharp.
    const m = await sharp(source).metadata();
    const scale = Math.max(v.width / (m.width || 1), v.height / (m.height || 1), 1);
    density = Math.min(72 * scale, 2400);
  }
  const img = sharp(source, { ...(density ? { density } : {}), limitInputPixels: MAX_UPLOAD_PIXELS }).rotate()
    .resize({ width: v.width, height: v.height, fit: FIT[v.resize] });
  return v.format === 'jpeg'
    ? img.flatten({ background: '#ffffff' }).jpeg({ quality: v.quality, mozjpeg: true }).toBuffer()
    : img.webp({ quality: v.quality }).toBuffer();
}

export class Renderer {
  readonly #storage: MediaStore;
  readonly #limits: RenderLimits;
  /** Variants being computed: concurrent requests for one variant share the work. */
  readonly #inFlight = new Map<string, Promise<Rendered>>();
  readonly #waiting: (() => void)[] = [];
  readonly #stats: RenderStats = { running: 0, queued: 0, peakRunning: 0, rendered: 0, cacheHits: 0, busy: 0 };
  /** Variants kept per source file: past this many, the file's cache starts over (bounds disk use). */
  readonly maxVariants: number;

  constructor(storage: MediaStore, limits: RenderLimits) {
    this.#storage = storage;
    this.#limits = limits;
    this.maxVariants = limits.sizes.length * 3 * 2;
    // One libvips thread per render (RENDER_CONCURRENCY renders at once), and a small operation cache.
    sharp.concurrency(1);
    sharp.cache({ memory: 16, files: 0, items: 50 });
  }

  get sizes(): readonly RenderSize[] {
    return this.#limits.sizes;
  }

  get stats(): RenderStats {
    return { ...this.#stats, queued: this.#waiting.length };
  }

  /**
   * The variant's file (computed on first request), or null when the source does not exist. `admit` is asked before a
   * fresh render (not for a cached or in-flight variant); false refuses it with RenderRefused.
   */
  async render(bucket: Bucket, storyId: string, file: string, v: Variant, admit: () => boolean = () => true): Promise<Rendered | null> {
    const src = await this.#storage.stat(bucket, storyId, file);
    if (!src) return null;
    const key = createHash('sha256').update(JSON.stringify([src.etag, v.width, v.height, v.quality, v.resize, v.format])).digest('hex').slice(0, 32);
    const dir = variantDir(this.#storage, bucket, storyId, file);
    const path = join(dir, `${key}.${v.format}`);
    const contentType = TYPES[v.format];
    // The key covers the source's ETag and every parameter: it identifies the variant's bytes.
    const etag = `"${key}"`;
    try {
      const st = await stat(path);
      this.#stats.cacheHits++;
      return { path, contentType, size: st.size, mtime: st.mtime, etag };
    } catch {
      // not cached yet
    }
    const running = this.#inFlight.get(path);
    if (running) return running;
    if (this.#stats.running >= this.#limits.concurrency && this.#waiting.length >= this.#limits.queue) {
      this.#stats.busy++;
      throw new RenderBusy('Too many images are being rendered: retry in a moment.');
    }
    if (!admit()) throw new RenderRefused('render budget spent');
    const job = (async (): Promise<Rendered> => {
      await this.#slot();
      try {
        const source = await readAll(this.#storage, bucket, storyId, file);
        if (source === null) throw new RenderError(`${file} is gone`);
        const out = await encode(source, src.contentType === 'image/svg+xml', v).catch((e: unknown) => {
          throw new RenderError(`${file} cannot be rendered as an image: ${e instanceof Error ? e.message : String(e)}`);
        });
        await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
        const kept = (await readdir(dir)).filter((n) => !n.startsWith('.'));
        if (kept.length >= this.maxVariants) await Promise.all(kept.map((n) => rm(join(dir, n), { force: true })));
        const temp = join(dir, `.tmp-${randomUUID()}`);
        await writeFile(temp, out, { mode: PRIVATE_FILE_MODE });
        await rename(temp, path);
        const st = await stat(path);
        this.#stats.rendered++;
        return { path, contentType, size: st.size, mtime: st.mtime, etag };
      } finally {
        this.#release();
      }
    })().finally(() => this.#inFlight.delete(path));
    this.#inFlight.set(path, job);
    return job;
  }

  async #slot(): Promise<void> {
    if (this.#stats.running < this.#limits.concurrency) {
      this.#stats.running++;
    } else {
      // The releasing render hands its slot over: running stays the same.
      await new Promise<void>((r) => this.#waiting.push(r));
    }
    this.#stats.peakRunning = Math.max(this.#stats.peakRunning, this.#stats.running);
  }

  #release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#stats.running--;
  }
}
