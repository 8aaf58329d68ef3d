// Storage routes in Supabase Storage's shapes, so the spec's URLs and supabase-js storage calls work against this
// server: public download, resized render, upload (raw bytes, x-upsert), update, and the list calls. Buckets are
// public: reads need no token. Writes need a signed-in author of the story or an admin (checked before the body is
// read), fit the per-file cap, the user's daily quota and the story's and author's stored-bytes quotas, and must decode
// as the type they claim: images are stored as sharp re-encodes them (SVG refused), sounds as sent once they decode.
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { RouteModule } from '../http/app.js';
import { HttpError, notFound, unauthorized } from '../http/errors.js';
import { route } from '../http/route.js';
import { RateLimiter } from '../http/rate-limit.js';
import { RenderBusy, RenderError, RenderQuery, RenderRefused, type Renderer, variantOf } from './render.js';
import type { UploadQuota } from './quota.js';
import { mb } from './stored-quota.js';
import { Bucket, checkUpload, FileName, StoryId, type StoredObject } from './storage.js';
import type { ByteRange, MediaStore } from './store.js';
import type { StoredQuota } from './stored-quota.js';
import { reencodeImage, verifySound } from './verify.js';

const ObjectParams = z.object({ bucket: Bucket, storyId: StoryId, file: FileName });
const FolderParams = z.object({ bucket: Bucket, storyId: StoryId });
const DownloadQuery = z.object({ download: z.string().max(200).optional() });
const Uploaded = z.object({ Key: z.string(), Id: z.string() });
const ListedObject = z.object({
  name: z.string(),
  id: z.string().nullable(),
  updated_at: z.string().nullable(),
  created_at: z.string().nullable(),
  last_accessed_at: z.string().nullable(),
  metadata: z.object({ eTag: z.string(), size: z.number(), mimetype: z.string(), cacheControl: z.string(), lastModified: z.string(), contentLength: z.number(), httpStatusCode: z.number() }).nullable(),
});
const ListBody = z.looseObject({
  prefix: z.string().max(200).default(''),
  limit: z.number().int().min(1).max(1000).default(100),
  offset: z.number().int().min(0).default(0),
  search: z.string().max(200).default(''),
  sortBy: z.object({ column: z.string(), order: z.enum(['asc', 'desc']).default('asc') }).optional(),
});

const CACHE_CONTROL = 'public, max-age=3600';
// Stored SVG is served as an image, never as a document that could run script on this origin.
const CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/** A file to send: its metadata, a name for downloads, and how to read its bytes (all or a range). */
type FileMeta = { name: string; size: number; mtime: Date; contentType: string; etag: string; read: (range: ByteRange) => Promise<Readable | Buffer | null> };

/** Streams a stored file with caching headers, answering 304 on a matching ETag and 206 on a single byte range. */
async function sendFile(req: FastifyRequest, reply: FastifyReply, f: FileMeta, download?: string): Promise<undefined> {
  void reply
    .header('content-type', f.contentType)
    .header('etag', f.etag)
    .header('last-modified', f.mtime.toUTCString())
    .header('cache-control', CACHE_CONTROL)
    .header('accept-ranges', 'bytes')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', CSP);
  if (download !== undefined) {
    const name = FileName.safeParse(download).success ? download : f.name;
    void reply.header('content-disposition', `attachment; filename="${name}"`);
  }
  const match = req.headers['if-none-match'];
  if (match && match.split(',').some((t) => t.trim().replace(/^W\//, '') === f.etag)) {
    await reply.code(304).send();
    return undefined;
  }
  let start = 0;
  let end = f.size - 1;
  const range = req.headers.range;
  if (range && f.size > 0) {
    const m = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
    const a = m?.[1] ?? '';
    const b = m?.[2] ?? '';
    if (m && (a !== '' || b !== '')) {
      start = a === '' ? Math.max(0, f.size - Number(b)) : Number(a);
      end = a === '' || b === '' ? f.size - 1 : Math.min(Number(b), f.size - 1);
    }
    if (!m || start > end || start >= f.size) {
      await reply.code(416).header('content-range', `bytes */${f.size}`).send();
      return undefined;
    }
    void reply.code(206).header('content-range', `bytes ${start}-${end}/${f.size}`);
  }
  const body = f.size === 0 ? '' : await f.read({ start, end });
  // Gone between its metadata and its bytes (replaced elsewhere with a shorter file, or removed).
  if (body === null) throw notFound('Object not found.');
  void reply.header('content-length', String(end - start + 1));
  await reply.send(body);
  // A client that went away leaves the stream unfinished: nothing more to send.
  if (!reply.sent) reply.hijack();
  return undefined;
}

function listed(o: StoredObject): z.infer<typeof ListedObject> {
  const at = o.mtime.toISOString();
  return {
    name: o.name, id: null, updated_at: at, created_at: at, last_accessed_at: at,
    metadata: { eTag: o.etag, size: o.size, mimetype: o.contentType, cacheControl: 'max-age=3600', lastModified: at, contentLength: o.size, httpStatusCode: 200 },
  };
}

export type MediaRouteDeps = {
  storage: MediaStore;
  renderer: Renderer;
  /** Whether a story exists (uploads go to existing stories only). */
  storyExists: (id: string) => Promise<boolean>;
  /** Whether this user may change this story's media: one of its authors, or an admin. */
  canWrite: (userId: string, storyId: string) => Promise<boolean>;
  quota: UploadQuota;
  /** Per-story and per-author stored bytes. */
  stored: StoredQuota;
  /** Largest file accepted, in bytes. */
  maxFileBytes: number;
  /** Fresh renders one client address may cause per minute. */
  renderPerMinute: number;
};


export function mediaRoutes(deps: MediaRouteDeps): RouteModule {
  const { storage, renderer } = deps;
  const renderBudget = new RateLimiter(deps.renderPerMinute, 60_000);

  async function download(req: FastifyRequest, reply: FastifyReply, p: z.infer<typeof ObjectParams>, q: z.infer<typeof DownloadQuery>): Promise<undefined> {
    const o = await storage.stat(p.bucket, p.storyId, p.file);
    if (!o) throw notFound('Object not found.');
    return sendFile(req, reply, { ...o, read: (range) => storage.read(p.bucket, p.storyId, p.file, range) }, q.download);
  }

  const quotaExceeded = (retryAfterS: number): HttpError => new HttpError(
    429, 'storage/quota_exceeded',
    `Upload quota reached: each user may upload ${mb(deps.quota.dailyBytes)} per 24 hours. Try again in ${Math.ceil(retryAfterS / 60)} minutes.`,
    { 'retry-after': String(retryAfterS) },
  );

  /** 401 without a user, 404 for an unknown story, 403 unless an author of the story or an admin. */
  async function authorize(user: FastifyRequest['user'], storyId: string): Promise<void> {
    if (!user) throw unauthorized();
    if (!(await deps.storyExists(storyId))) throw notFound('Story not found.');
    if (!(await deps.canWrite(user.id, storyId))) throw new HttpError(403, 'storage/forbidden', "Only the story's authors and admins may change its media.");
  }

  async function write(req: FastifyRequest, p: z.infer<typeof ObjectParams>, mode: 'create' | 'upsert' | 'update'): Promise<z.infer<typeof Uploaded>> {
    await authorize(req.user, p.storyId);
    const body: unknown = req.body;
    const sent = Buffer.isBuffer(body) ? body : null;
    const check = checkUpload(p.bucket, p.file, req.headers['content-type'], sent ?? Buffer.alloc(0));
    if (!check.ok && check.status === 415 && check.code !== 'storage/content_mismatch') throw new HttpError(415, check.code, check.message);
    if (!sent || sent.length === 0) throw new HttpError(400, 'storage/empty', 'The body is empty: send the file bytes.');
    if (!check.ok) throw new HttpError(check.status, check.code, check.message);
    // What is stored: sharp's re-encoding of an image; a sound as sent once it decodes.
    let bytes = sent;
    if (p.bucket === 'image') {
      const image = await reencodeImage(sent, check.type);
      if (!image.ok) throw new HttpError(415, 'storage/content_mismatch', image.message);
      bytes = image.bytes;
    } else {
      const sound = await verifySound(sent, check.type);
      if (!sound.ok) throw new HttpError(415, 'storage/content_mismatch', sound.message);
    }
    if (mode === 'update' && !(await storage.stat(p.bucket, p.storyId, p.file))) throw notFound('Object not found.');
    const userId = req.user?.id ?? '';
    const over = await deps.stored.check(userId, p.storyId, [{ bucket: p.bucket, file: p.file, bytes: bytes.length }]);
    if (over) throw new HttpError(over.status, over.code, over.message);
    // The daily quota charges what was sent (the work of receiving and checking it), as before re-encoding.
    const reserved = await deps.quota.reserve(userId, { bucket: p.bucket, storyId: p.storyId, file: p.file }, sent.length);
    if (!reserved.ok) throw quotaExceeded(reserved.retryAfterS);
    let r: Awaited<ReturnType<MediaStore['put']>>;
    try {
      r = await storage.put(p.bucket, p.storyId, p.file, bytes, mode !== 'create');
    } catch (e) {
      await deps.quota.release(reserved.id);
      throw e;
    }
    if (r === 'exists') {
      await deps.quota.release(reserved.id);
      throw new HttpError(409, 'storage/already_exists', 'The resource already exists: send x-upsert: true to replace it.');
    }
    req.log.info({ bucket: p.bucket, story_id: p.storyId, file: p.file, bytes: bytes.length, result: r, user: userId }, 'media stored');
    return { Key: `${p.bucket}/${p.storyId}/${p.file}`, Id: randomUUID() };
  }

  return async (app) => {
    await app.register((scope, _opts, done) => {
      // Uploads are raw bytes of any type (checked by the handler); JSON and forms keep the app's parsers.
      scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: deps.maxFileBytes }, (_req, body, done) => done(null, body));
      // A write is refused before its body is read when the caller may not write there, or when its declared length
      // would not fit the quota (the handler checks again with the bytes received).
      scope.addHook('onRequest', async (req) => {
        const write = (req.method === 'POST' || req.method === 'PUT') && !req.url.startsWith('/storage/v1/object/list/');
        if (!write) return;
        const storyId = (req.params as Record<string, unknown>).storyId;
        if (!req.user) throw unauthorized();
        if (typeof storyId !== 'string' || !StoryId.safeParse(storyId).success) return; // route() answers 400
        await authorize(req.user, storyId);
        const declared = Number(req.headers['content-length'] ?? 0);
        if (declared > 0 && declared <= deps.maxFileBytes) {
          const wait = await deps.quota.wouldWait(req.user.id, declared);
          if (wait !== null) throw quotaExceeded(wait);
        }
      });
      scope.setErrorHandler((err: Error & { code?: string }) => {
        if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw new HttpError(413, 'storage/too_large', `The file is larger than ${mb(deps.maxFileBytes)}.`);
        if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') throw new HttpError(415, 'storage/unsupported_type', err.message);
        throw err;
      });

      route(scope, { method: 'GET', url: '/storage/v1/object/public/:bucket/:storyId/:file', summary: 'A stored file of a public bucket (image or sound), with ETag and range support', tags: ['storage'], auth: 'none', params: ObjectParams, query: DownloadQuery, produces: '*/*' },
        async ({ req, reply, params, query }) => download(req, reply, params, query));
      route(scope, { method: 'GET', url: '/storage/v1/object/:bucket/:storyId/:file', summary: 'Download a stored file (supabase-js download(); buckets are public)', tags: ['storage'], auth: 'optional', params: ObjectParams, query: DownloadQuery, produces: '*/*' },
        async ({ req, reply, params, query }) => download(req, reply, params, query));
      route(scope, { method: 'GET', url: '/storage/v1/render/image/public/:bucket/:storyId/:file', summary: "A resized image at one of the spec's sizes (width and height; quality defaults to the size's), resize cover|contain|fill; JPEG unless format=webp", tags: ['storage'], auth: 'none', params: ObjectParams, query: RenderQuery, produces: 'image/jpeg' },
        async ({ req, reply, params: p, query }) => {
          if (p.bucket !== 'image') throw new HttpError(400, 'storage/not_an_image', 'Only the image bucket can be rendered.');
          const v = variantOf(query, renderer.sizes);
          if (!v.ok) throw new HttpError(400, 'storage/size_not_allowed', v.message);
          const admit = (): boolean => renderBudget.allow(req.ip, Date.now());
          const out = await renderer.render(p.bucket, p.storyId, p.file, v.variant, admit).catch((e: unknown) => {
            if (e instanceof RenderError) throw new HttpError(422, 'storage/not_renderable', e.message);
            if (e instanceof RenderBusy) throw new HttpError(503, 'storage/busy', e.message, { 'retry-after': '2' });
            if (e instanceof RenderRefused) {
              const wait = Math.max(1, Math.ceil(renderBudget.retryAfterMs(req.ip, Date.now()) / 1000));
              throw new HttpError(429, 'storage/render_rate_limited', `Too many new image sizes requested: ${deps.renderPerMinute} fresh renders a minute per client. Retry in ${wait} s (already rendered images are not limited).`, { 'retry-after': String(wait) });
            }
            throw e;
          });
          if (!out) throw notFound('Object not found.');
          return sendFile(req, reply, { ...out, name: p.file, read: (range) => Promise.resolve(createReadStream(out.path, range)) });
        });
      route(scope, { method: 'POST', url: '/storage/v1/object/:bucket/:storyId/:file', summary: 'Upload a file (raw bytes with their content type; x-upsert: true replaces an existing file)', tags: ['storage'], auth: 'user', params: ObjectParams, response: Uploaded },
        async ({ req, params }) => write(req, params, req.headers['x-upsert'] === 'true' ? 'upsert' : 'create'));
      route(scope, { method: 'PUT', url: '/storage/v1/object/:bucket/:storyId/:file', summary: 'Replace an existing file (supabase-js update())', tags: ['storage'], auth: 'user', params: ObjectParams, response: Uploaded },
        async ({ req, params }) => write(req, params, 'update'));
      route(scope, { method: 'GET', url: '/storage/v1/object/list/:bucket/:storyId', summary: "A story's files in a bucket, by name", tags: ['storage'], auth: 'none', params: FolderParams, response: z.array(ListedObject) },
        async ({ params }) => (await storage.list(params.bucket, params.storyId)).map(listed));
      route(scope, { method: 'POST', url: '/storage/v1/object/list/:bucket', summary: "supabase-js list(): a story's files (prefix = story id), or the story folders (empty prefix)", tags: ['storage'], auth: 'none', params: z.object({ bucket: Bucket }), body: ListBody, response: z.array(ListedObject) },
        async ({ params, body }) => {
          const prefix = body.prefix.replace(/\/+$/, '');
          let rows: z.infer<typeof ListedObject>[];
          if (prefix === '') {
            rows = (await storage.stories(params.bucket)).map((name) => ({ name, id: null, updated_at: null, created_at: null, last_accessed_at: null, metadata: null }));
          } else if (StoryId.safeParse(prefix).success) {
            rows = (await storage.list(params.bucket, prefix)).map(listed);
          } else {
            rows = [];
          }
          rows = rows.filter((r) => r.name.toLowerCase().includes(body.search.toLowerCase()));
          if (body.sortBy?.order === 'desc') rows.reverse();
          return rows.slice(body.offset, body.offset + body.limit);
        });
      done();
    });
  };
}
