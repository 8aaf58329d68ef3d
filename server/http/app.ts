// The HTTP application (Fastify). Route modules register themselves through `RouteModule`; they receive the shared
// services. Errors are JSON; one log line per request with its timing; secrets never logged.
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/db.js';
import type { Logger } from '../log.js';
import { safeUrl } from '../log.js';
import { checkJson, showJsonPath } from '../../engine/schema/json-guard.js';
import { HttpError } from './errors.js';
import { hostCheck, isProbePath, MISDIRECTED_MESSAGE } from './host-check.js';
import { RateLimiter } from './rate-limit.js';

/** The signed-in caller, set by the auth layer. */
export type AuthUser = { id: string; email: string | null; role: string };

/**
 * What route modules share. Each part of the server adds its own fields by declaration merging
 * (`declare module '../http/app.js' { interface Services { stories: StoryRepo } }`), so the container stays typed.
 */
export interface Services {
  config: Config;
  log: Logger;
  db: Db;
  /** Resolves a bearer access token to a user, or null. Set by the auth part. */
  authenticate: (token: string) => Promise<AuthUser | null>;
  /** Work to run when the server stops (in reverse order). */
  onClose: (() => Promise<void> | void)[];
  /** The web app's pages and assets, for GETs no route answered (null: not the app's, a plain 404). */
  webApp?: (req: FastifyRequest, reply: FastifyReply) => FastifyReply | null;
}

/** Deepest nesting of a request body (objects and arrays). */
export const MAX_BODY_DEPTH = 32;

export type RouteModule = (app: FastifyInstance, services: Services) => void | Promise<void>;

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser | null;
  }
}

function bearer(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (h && /^bearer /i.test(h)) return h.slice(7).trim();
  return null;
}

/** Requires a signed-in user: 401 otherwise. */
export function requireUser(req: FastifyRequest): AuthUser {
  if (!req.user) throw new HttpError(401, 'unauthorized', 'Sign in first: a valid access token is required.');
  return req.user;
}

export async function buildApp(services: Services, modules: readonly RouteModule[]): Promise<FastifyInstance> {
  const { config, log } = services;
  const app: FastifyInstance = Fastify({
    loggerInstance: log.child({ component: 'http' }) as unknown as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.HTTP_BODY_LIMIT,
    // The peer and the TRUST_PROXY_HOPS - 1 entries before it are proxies; the entry before those is the client. Not
    // `true`, which takes the left-most X-Forwarded-For entry: the client's own claim. (Fastify refuses a bare hop count.)
    trustProxy: config.TRUST_PROXY ? (_addr: string, i: number) => i < config.TRUST_PROXY_HOPS : false,
  });
  const limiter = new RateLimiter(config.HTTP_RATE_LIMIT, 60_000);
  const hostAllowed = hostCheck(config);
  app.decorateRequest('user', null);
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  app.addHook('onRequest', async (req, reply) => {
    if (!hostAllowed(req.headers.host) && !isProbePath(req.url.split('?')[0] ?? '')) throw new HttpError(421, 'misdirected_request', MISDIRECTED_MESSAGE);
    const origin = req.headers.origin;
    if (origin && config.ALLOWED_ORIGINS.includes(origin)) {
      void reply.header('access-control-allow-origin', origin).header('vary', 'origin').header('access-control-allow-credentials', 'true');
    }
    if (!limiter.allow(req.ip, Date.now())) throw new HttpError(429, 'rate_limited', 'Too many requests: slow down and retry in a minute.');
    const token = bearer(req);
    if (token) req.user = await services.authenticate(token);
  });
  // Headers every answer gets by what it is: JSON is never sniffed as something else; an answer carrying a token (or
  // from the token route, refusals included) is never kept by a cache; HTTPS (the request came over it through a
  // trusted proxy, or PUBLIC_URL is https) tells browsers to stay on HTTPS for a year.
  const httpsOnly = config.PUBLIC_URL?.startsWith('https:') === true;
  app.addHook('onSend', async (req, reply, payload) => {
    const type = String(reply.getHeader('content-type') ?? '');
    if (type.includes('json')) void reply.header('x-content-type-options', 'nosniff');
    const path = req.url.split('?')[0] ?? '';
    const carriesToken = (typeof payload === 'string' && /"(access_token|refresh_token)"\s*:/.test(payload)) || /[#&?]access_token=/.test(String(reply.getHeader('location') ?? ''));
    if (path === '/auth/v1/token' || carriesToken) {
      void reply.header('cache-control', 'no-store');
    }
    if (httpsOnly || (config.TRUST_PROXY && req.protocol === 'https')) void reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    return payload;
  });
  // Every JSON (and form) body, on every route: text must be valid Unicode (PostgreSQL's jsonb refuses an unpaired
  // surrogate) and nesting bounded, whatever the route's own schema says.
  app.addHook('preValidation', (req, _reply, done) => {
    const body: unknown = req.body;
    const bad = typeof body === 'object' && body !== null && !Buffer.isBuffer(body) ? checkJson(body, { maxDepth: MAX_BODY_DEPTH }) : null;
    done(bad ? new HttpError(400, 'validation_error', `Invalid body: ${showJsonPath(bad.path)}: ${bad.message}.`) : undefined);
  });
  app.options('*', async (req, reply) => {
    void reply
      .header('access-control-allow-methods', 'GET,POST,PUT,PATCH,DELETE,OPTIONS')
      .header('access-control-allow-headers', req.headers['access-control-request-headers'] ?? 'authorization,content-type,apikey,x-client-info')
      .header('access-control-max-age', '600')
      .code(204);
    return reply.send();
  });
  app.addHook('onResponse', async (req, reply) => {
    app.log.info({ method: req.method, url: safeUrl(req.url), status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10, user: req.user?.id }, 'request');
  });
  app.setErrorHandler(async (err: Error & { statusCode?: number; code?: string }, req, reply: FastifyReply) => {
    if (err instanceof HttpError) {
      return reply.code(err.status).headers(err.headers).send({ error: { code: err.code, message: err.message, ...(err.details !== undefined ? { details: err.details } : {}) } });
    }
    if (err.statusCode && err.statusCode < 500) {
      return reply.code(err.statusCode).send({ error: { code: err.code ?? 'bad_request', message: err.message } });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.code(500).send({ error: { code: 'internal', message: 'Unexpected error occurred' } });
  });
  app.setNotFoundHandler(async (req, reply) => {
    // A GET no route answered may be the web app's (a page, an asset): server/http/web-app.ts decides.
    if ((req.method === 'GET' || req.method === 'HEAD') && services.webApp) {
      const served = services.webApp(req, reply);
      if (served) return served;
    }
    return reply.code(404).send({ error: { code: 'not_found', message: `No route ${req.method} ${safeUrl(req.url)}` } });
  });
  for (const m of modules) await m(app, services);
  return app;
}
