// The web app, served by the game server from its build (web/dist, `npm run build:web`; `npm start` builds it when
// stale). Hashed assets are cached for a year as immutable; index.html is never cached without revalidation; every
// app route (any GET that is not the server's own and names no file) gets index.html, so deep links and reloads
// work. It answers only what no route of the server did, and never under the server's own paths (API, auth, storage,
// /ws, /data, /metrics...): those keep their JSON 404s. Precompressed .br/.gz copies go to browsers that take them.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { join, normalize, resolve, sep } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RouteModule } from './app.js';
import { contentSecurityPolicy } from './csp.js';

const ROOT = join(import.meta.dirname, '..', '..');
export const DEFAULT_WEB_DIST = join(ROOT, 'web', 'dist');

/** Paths the server answers itself: never the app's index.html, even when nothing matches under them. */
const SERVER_PREFIXES = ['/api/', '/auth/', '/storage/', '/ws', '/data/', '/dev/', '/marketing/', '/metrics', '/openapi.json', '/docs', '/healthz', '/readyz'];

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.ogg': 'audio/ogg',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.wasm': 'application/wasm',
};

export function isServerPath(path: string): boolean {
  return SERVER_PREFIXES.some((p) => path === p.replace(/\/$/, '') || path.startsWith(p));
}

function extension(path: string): string {
  const m = /\.[a-z0-9]+$/i.exec(path);
  return m ? m[0].toLowerCase() : '';
}

type Found = { file: string; size: number; mtimeMs: number };

function fileIn(dist: string, urlPath: string): Found | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const file = resolve(dist, `.${normalize(`/${decoded}`)}`);
  if (file !== dist && !file.startsWith(dist + sep)) return null;
  try {
    const st = statSync(file);
    return st.isFile() ? { file, size: st.size, mtimeMs: st.mtimeMs } : null;
  } catch {
    return null;
  }
}

function cacheControl(urlPath: string): string {
  if (urlPath.startsWith('/assets/')) return 'public, max-age=31536000, immutable';
  if (extension(urlPath) === '.html' || urlPath === '/') return 'no-cache';
  return 'public, max-age=3600';
}

function send(req: FastifyRequest, reply: FastifyReply, found: Found, urlPath: string, csp: string, status = 200): FastifyReply {
  const ext = extension(found.file);
  const etag = `W/"${found.size.toString(16)}-${Math.floor(found.mtimeMs).toString(16)}"`;
  void reply.header('content-type', TYPES[ext] ?? 'application/octet-stream')
    .header('cache-control', cacheControl(urlPath))
    .header('x-content-type-options', 'nosniff')
    .header('vary', 'accept-encoding')
    .header('etag', etag);
  if (ext === '.html') {
    void reply.header('content-security-policy', csp).header('referrer-policy', 'strict-origin-when-cross-origin')
      .header('x-frame-options', 'DENY'); // for browsers older than CSP frame-ancestors
  }
  if (status === 200 && req.headers['if-none-match'] === etag) return reply.code(304).send();
  const accept = String(req.headers['accept-encoding'] ?? '');
  for (const [token, suffix] of [['br', '.br'], ['gzip', '.gz']] as const) {
    if (!accept.includes(token) || !existsSync(found.file + suffix)) continue;
    // Fastify answers HEAD with this handler, headers only.
    void reply.header('content-encoding', token).header('content-length', statSync(found.file + suffix).size);
    return reply.code(status).send(createReadStream(found.file + suffix));
  }
  void reply.header('content-length', found.size);
  return reply.code(status).send(createReadStream(found.file));
}

const NOT_BUILT = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Looptale</title>
<body style="font-family:system-ui;background:#0b0d14;color:#f3efe6;display:grid;place-items:center;min-height:100vh;margin:0">
<main style="max-width:36rem;padding:2rem"><h1>The web app is not built</h1>
<p>This server answers its API, but the app's files are missing. Run <code>npm run build:web</code>
(or <code>npm start</code>, which builds it), then reload.</p></main></body></html>`;

export function webAppRoutes(dist: string): RouteModule {
  const root = resolve(dist);
  return (_app, s) => {
    const built = existsSync(join(root, 'index.html'));
    if (!built) s.log.warn({ dist: root }, 'web app not built: run npm run build:web (npm start builds it)');
    // Served from the not-found path (server/http/app.ts): every route of the server, and the 404 handlers of its
    // scopes (/auth/v1 answers in GoTrue's shape), come first.
    s.webApp = (req, reply) => {
      const path = (req.raw.url ?? '/').split('?')[0] ?? '/';
      if (isServerPath(path)) return null;
      const found = path === '/' ? null : fileIn(root, path);
      if (found && !found.file.endsWith(`${sep}index.html`)) return send(req, reply, found, path, contentSecurityPolicy(s.config, req.headers.host));
      // A missing file (a name with an extension) is a 404, never the app: a stale asset must not parse HTML as JS.
      if (extension(path) && extension(path) !== '.html') return null;
      const index = fileIn(root, '/index.html');
      if (!index) return reply.code(503).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-cache').send(NOT_BUILT);
      return send(req, reply, index, '/index.html', contentSecurityPolicy(s.config, req.headers.host));
    };
  };
}
