// Media in a Supabase project's Storage, over its HTTP API (the buckets `image` and `sound`, objects {storyId}/{file}),
// with the project's service-role key (server-side only: it bypasses Storage's policies). Every server process, on
// any machine, reads and writes the same objects; the game server still serves them under /storage/v1 (one URL shape
// for clients, ranges and ETags passed through), and keeps rendered variants in a per-process cache on local disk.
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { contentTypeOf, StoryId, type Bucket, type StoredObject } from './storage.js';
import type { ByteRange, MediaStore } from './store.js';

export type SupabaseStorageOptions = { url: string; serviceKey: string; cacheRoot: string; timeoutMs?: number };

type Listed = { name: string; id: string | null; updated_at?: string | null; metadata?: { size?: number; mimetype?: string; eTag?: string; lastModified?: string } | null };

export class SupabaseStorageError extends Error {}

export class SupabaseMediaStore implements MediaStore {
  readonly kind = 'supabase' as const;
  readonly cacheRoot: string;
  readonly #base: string;
  readonly #key: string;
  readonly #timeoutMs: number;

  constructor(o: SupabaseStorageOptions) {
    this.#base = `${o.url.replace(/\/+$/, '')}/storage/v1`;
    this.#key = o.serviceKey;
    this.cacheRoot = o.cacheRoot;
    this.#timeoutMs = o.timeoutMs ?? 15_000;
  }

  #url(bucket: Bucket, storyId: string, file: string): string {
    return `${this.#base}/object/${bucket}/${encodeURIComponent(storyId)}/${encodeURIComponent(file)}`;
  }

  async #fetch(url: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<Response> {
    return fetch(url, {
      ...init,
      headers: { authorization: `Bearer ${this.#key}`, apikey: this.#key, ...init.headers },
      signal: AbortSignal.timeout(this.#timeoutMs),
    });
  }

  async stat(bucket: Bucket, storyId: string, file: string): Promise<StoredObject | null> {
    const res = await this.#fetch(this.#url(bucket, storyId, file), { method: 'HEAD' });
    if (await missing(res)) return null;
    await expectOk(res, 'HEAD');
    const size = Number(res.headers.get('content-length') ?? 0);
    const modified = res.headers.get('last-modified');
    return {
      name: file, size, mtime: modified ? new Date(modified) : new Date(0),
      contentType: res.headers.get('content-type') ?? contentTypeOf(file), etag: quoted(res.headers.get('etag') ?? `"${size}"`),
    };
  }

  async read(bucket: Bucket, storyId: string, file: string, range?: ByteRange): Promise<Readable | null> {
    const res = await this.#fetch(this.#url(bucket, storyId, file), { headers: range ? { range: `bytes=${range.start}-${range.end}` } : {} });
    if (await missing(res)) {
      await res.body?.cancel();
      return null;
    }
    await expectOk(res, 'GET');
    if (!res.body) return Readable.from([]);
    return Readable.fromWeb(res.body as WebReadableStream<Uint8Array>);
  }

  async #list(bucket: Bucket, prefix: string): Promise<Listed[]> {
    const out: Listed[] = [];
    for (let offset = 0; ; offset += 1000) {
      const res = await this.#fetch(`${this.#base}/object/list/${bucket}`, {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ prefix, limit: 1000, offset, sortBy: { column: 'name', order: 'asc' } }),
      });
      await expectOk(res, 'list');
      const page = (await res.json()) as Listed[];
      out.push(...page);
      if (page.length < 1000) return out;
    }
  }

  async list(bucket: Bucket, storyId: string): Promise<StoredObject[]> {
    return (await this.#list(bucket, `${storyId}/`))
      .filter((o) => o.id !== null && o.metadata)
      .map((o) => ({
        name: o.name, size: o.metadata?.size ?? 0, mtime: new Date(o.metadata?.lastModified ?? o.updated_at ?? 0),
        contentType: o.metadata?.mimetype ?? contentTypeOf(o.name), etag: quoted(o.metadata?.eTag ?? `"${o.metadata?.size ?? 0}"`),
      }));
  }

  async stories(bucket: Bucket): Promise<string[]> {
    // Folders come back with no id.
    return (await this.#list(bucket, '')).filter((o) => o.id === null && StoryId.safeParse(o.name).success).map((o) => o.name).sort();
  }

  async put(bucket: Bucket, storyId: string, file: string, body: Buffer, upsert: boolean): Promise<'created' | 'replaced' | 'exists'> {
    const existed = upsert ? (await this.stat(bucket, storyId, file)) !== null : false;
    const res = await this.#fetch(this.#url(bucket, storyId, file), {
      method: 'POST',
      headers: { 'content-type': contentTypeOf(file), 'x-upsert': upsert ? 'true' : 'false', 'cache-control': 'max-age=3600' },
      body: new Uint8Array(body),
    });
    if (!upsert && (await duplicate(res))) return 'exists';
    await expectOk(res, 'upload');
    await res.body?.cancel();
    return existed ? 'replaced' : 'created';
  }
}

/** Storage answers a missing object with 404, or (older versions) 400 whose JSON body says 404; a HEAD has no body. */
async function missing(res: Response): Promise<boolean> {
  if (res.status === 404) return true;
  if (res.status !== 400) return false;
  const text = await res.clone().text().catch(() => '');
  return text === '' || /"statusCode"\s*:\s*"404"|not_found|Object not found/i.test(text);
}

async function duplicate(res: Response): Promise<boolean> {
  if (res.status === 409) return true;
  if (res.status !== 400) return false;
  const text = await res.clone().text();
  return /"statusCode"\s*:\s*"409"|Duplicate|already exists/i.test(text);
}

async function expectOk(res: Response, what: string): Promise<void> {
  if (res.ok) return;
  const text = (await res.text().catch(() => '')).slice(0, 300);
  if (res.status === 400 && /"statusCode"\s*:\s*"404"|not.?found/i.test(text)) throw new SupabaseStorageError(`Supabase Storage ${what}: object not found`);
  throw new SupabaseStorageError(`Supabase Storage ${what} answered ${res.status}: ${text}`);
}

function quoted(etag: string): string {
  const t = etag.replace(/^W\//, '');
  return t.startsWith('"') ? t : `"${t}"`;
}
