// A stand-in for a Supabase project's Storage API (an external paid service, so it is faked, here in tests only):
// the object routes the server's SupabaseMediaStore calls, with the answers storage-api gives (read from its routes:
// GET/HEAD object with Range, POST upload with x-upsert, POST object/list with folders as id-null entries, errors as
// 400 with a JSON statusCode for older deployments or the real status with `legacy: false`). Objects live in memory.
//
//   const fake = await startFakeStorage({ serviceKey: 'k', buckets: ['image', 'sound'] });
//   ... new SupabaseMediaStore({ url: fake.url, serviceKey: 'k', ... }) ...
//   fake.requests; fake.failNext(2, 503); await fake.close();
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Obj = { body: Buffer; contentType: string; cacheControl: string; etag: string; updatedAt: Date; id: string };

export type FakeStorage = {
  /** http://127.0.0.1:PORT (the project URL; the API is under /storage/v1). */
  url: string;
  objects: Map<string, Obj>;
  /** "METHOD path" of every request, in order. */
  requests: string[];
  /** The next `n` requests answer `status` (a failing or overloaded Storage). */
  failNext(n: number, status: number): void;
  close(): Promise<void>;
};

export async function startFakeStorage(o: { serviceKey: string; buckets: string[]; legacyErrors?: boolean }): Promise<FakeStorage> {
  const objects = new Map<string, Obj>();
  const requests: string[] = [];
  let failing = { n: 0, status: 500 };

  const error = (res: ServerResponse, status: number, err: string, message: string, head = false): void => {
    const code = o.legacyErrors && status !== 416 ? 400 : status;
    res.writeHead(code, head ? {} : { 'content-type': 'application/json' });
    res.end(head ? undefined : JSON.stringify({ statusCode: String(status), error: err, message }));
  };

  const read = async (req: IncomingMessage): Promise<Buffer> => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  };

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const path = decodeURIComponent(url.pathname);
      requests.push(`${req.method} ${path}`);
      if (failing.n > 0) {
        failing.n--;
        await read(req);
        return error(res, failing.status, 'internal', 'induced failure', req.method === 'HEAD');
      }
      const auth = req.headers.authorization;
      if (auth !== `Bearer ${o.serviceKey}` || req.headers.apikey !== o.serviceKey) {
        await read(req);
        return error(res, 403, 'Unauthorized', 'invalid signature', req.method === 'HEAD');
      }
      const list = /^\/storage\/v1\/object\/list\/([^/]+)$/.exec(path);
      if (list && req.method === 'POST') {
        const bucket = list[1]!;
        if (!o.buckets.includes(bucket)) return error(res, 404, 'Bucket not found', 'Bucket not found');
        const q = JSON.parse((await read(req)).toString('utf8') || '{}') as { prefix?: string; limit?: number; offset?: number };
        const prefix = (q.prefix ?? '').replace(/^\/+/, '');
        const folder = prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`;
        const entries = new Map<string, object>();
        for (const [key, v] of objects) {
          if (!key.startsWith(`${bucket}/${folder}`)) continue;
          const rest = key.slice(bucket.length + 1 + folder.length);
          const slash = rest.indexOf('/');
          if (slash >= 0) {
            const name = rest.slice(0, slash);
            entries.set(name, { name, id: null, updated_at: null, created_at: null, last_accessed_at: null, metadata: null });
          } else {
            const at = v.updatedAt.toISOString();
            entries.set(rest, {
              name: rest, id: v.id, updated_at: at, created_at: at, last_accessed_at: at,
              metadata: { eTag: v.etag, size: v.body.length, mimetype: v.contentType, cacheControl: v.cacheControl, lastModified: at, contentLength: v.body.length, httpStatusCode: 200 },
            });
          }
        }
        const sorted = [...entries.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, e]) => e);
        const offset = q.offset ?? 0;
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify(sorted.slice(offset, offset + (q.limit ?? 100))));
      }
      const m = /^\/storage\/v1\/object\/([^/]+)\/(.+)$/.exec(path);
      if (!m) return error(res, 404, 'not_found', 'Route not found');
      const [, bucket, name] = m as unknown as [string, string, string];
      if (!o.buckets.includes(bucket)) {
        await read(req);
        return error(res, 404, 'Bucket not found', 'Bucket not found', req.method === 'HEAD');
      }
      const key = `${bucket}/${name}`;
      if (req.method === 'POST' || req.method === 'PUT') {
        const body = await read(req);
        const upsert = req.headers['x-upsert'] === 'true';
        const existing = objects.get(key);
        if (req.method === 'POST' && existing && !upsert) return error(res, 409, 'Duplicate', 'The resource already exists');
        if (req.method === 'PUT' && !existing) return error(res, 404, 'not_found', 'Object not found');
        const obj: Obj = {
          body, contentType: req.headers['content-type'] ?? 'application/octet-stream', cacheControl: String(req.headers['cache-control'] ?? 'no-cache'),
          etag: `"${createHash('md5').update(body).digest('hex')}"`, updatedAt: new Date(), id: existing?.id ?? randomUUID(),
        };
        objects.set(key, obj);
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ Key: key, Id: obj.id }));
      }
      if (req.method === 'GET' || req.method === 'HEAD') {
        const obj = objects.get(key);
        if (!obj) return error(res, 404, 'not_found', 'Object not found', req.method === 'HEAD');
        const headers: Record<string, string> = {
          'content-type': obj.contentType, etag: obj.etag, 'last-modified': obj.updatedAt.toUTCString(), 'cache-control': obj.cacheControl, 'accept-ranges': 'bytes',
        };
        const size = obj.body.length;
        const range = /^bytes=(\d+)-(\d*)$/.exec(String(req.headers.range ?? ''));
        if (range) {
          const start = Number(range[1]);
          const end = range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
          if (start > end) {
            res.writeHead(416, { 'content-range': `bytes */${size}` });
            return res.end();
          }
          res.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${end}/${size}`, 'content-length': String(end - start + 1) });
          return res.end(req.method === 'HEAD' ? undefined : obj.body.subarray(start, end + 1));
        }
        res.writeHead(200, { ...headers, 'content-length': String(size) });
        return res.end(req.method === 'HEAD' ? undefined : obj.body);
      }
      return error(res, 405, 'method', 'Method not allowed');
    })().catch((e: unknown) => {
      res.writeHead(500);
      res.end(String(e));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`, objects, requests,
    failNext(n, status) {
      failing = { n, status };
    },
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}
