// The auth part of the server: sets `services.authenticate` and `services.auth`, and registers /auth/v1 (GoTrue's API,
// so the unmodified supabase-js client works against this server), /dev/outbox and /marketing/waitlist_redeem.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { publicUrl } from '../config.js';
import { PgListener } from '../db/listen.js';
import type { RouteModule, Services } from '../http/app.js';
import { isLocalRequest } from '../http/local-only.js';
import { isUuid, type AuthContext } from './context.js';
import { AuthApiError, authErrorHandler, errorBody } from './errors.js';
import { googleRoutes } from './google.js';
import { DatabaseLimitStore, MemoryLimitStore } from './limit-store.js';
import { AuthLimits } from './limits.js';
import { Mailer } from './mailer.js';
import { accountRoutes } from './routes-account.js';
import { accountDataRoutes } from './account-data.js';
import { reauthenticationRoutes } from './reauthentication.js';
import { emailRoutes } from './routes-email.js';
import type { AuthService, VerifiedToken } from './service.js';
import { Sessions } from './sessions.js';
import { supabaseAuthRoutes, supabaseVerifier } from './supabase.js';
import { loadJwtSecret } from './signing-secret.js';
import { verifyAccessToken } from './tokens.js';
import { waitlistRoutes } from './waitlist.js';

const SWEEP_MS = 60 * 60_000;

/** PUBLIC_URL, or this process's own address once it listens (never the request's Host header: emails carry it). */
function baseUrlOf(app: FastifyInstance, s: Services): () => string {
  return () => {
    if (s.config.PUBLIC_URL) return publicUrl(s.config);
    const addr = app.server.address() as AddressInfo | null;
    const host = s.config.HOST === '0.0.0.0' || s.config.HOST === '::' ? 'localhost' : s.config.HOST.includes(':') ? `[${s.config.HOST}]` : s.config.HOST;
    return addr ? `http://${host}:${addr.port}` : publicUrl(s.config);
  };
}

/** Deletes what has expired: email tokens, PKCE codes, OAuth states, sessions ended a week ago, old rotated tokens. */
async function sweep(s: Services): Promise<void> {
  await s.db.query('DELETE FROM looptale_auth.one_time_tokens WHERE expires_at < now()');
  await s.db.query('DELETE FROM looptale_auth.flow_state WHERE expires_at < now()');
  await s.db.query('DELETE FROM looptale_auth.oauth_states WHERE expires_at < now()');
  await s.db.query("DELETE FROM looptale_auth.sessions WHERE ended_at < now() - interval '7 days'");
  // Rotated refresh tokens are kept a month to catch their reuse; an older one is simply unknown.
  await s.db.query("DELETE FROM looptale_auth.refresh_tokens WHERE revoked AND updated_at < now() - interval '30 days'");
}

export const authModule: RouteModule = async (app, s) => {
  const { config, db, log } = s;
  const now = (): number => Date.now();
  waitlistRoutes(app, s);

  if (config.AUTH_PROVIDER === 'supabase') {
    const verify = supabaseVerifier(config);
    s.authenticate = async (token) => (await verify(token))?.user ?? null;
    s.auth = { provider: 'supabase', verify, onSessionEnd: () => () => undefined } satisfies AuthService;
    supabaseAuthRoutes(app);
    return;
  }

  const secret = await loadJwtSecret(db, config, log);
  const baseUrl = baseUrlOf(app, s);
  const sessions = new Sessions({ db, log, secret, issuer: () => `${baseUrl()}/auth/v1`, ttlS: config.ACCESS_TOKEN_TTL_S, reuseIntervalS: config.REFRESH_TOKEN_REUSE_INTERVAL_S, now });
  // Several processes may share a PostgreSQL database: hear of the sessions the others end (LISTEN/NOTIFY).
  const listener = db.kind === 'postgres' && config.DATABASE_URL ? new PgListener({ url: config.DATABASE_URL, log }) : null;
  if (listener) {
    sessions.listenTo(listener);
    await listener.start();
  }
  const mailer = new Mailer(config, log, now);
  const ctx: AuthContext = { config, db, log, secret, baseUrl, now, sessions, mailer, limits: new AuthLimits(
    now, config.AUTH_RATE_LIMIT_SCALE,
    // Processes sharing a PostgreSQL share the counters: N processes allow the attempts of one.
    db.kind === 'postgres' ? new DatabaseLimitStore(db, now) : new MemoryLimitStore(now),
  ) };

  const sweeper = setInterval(() => void sweep(s).catch((err: unknown) => log.warn({ err }, 'auth: sweep failed')), SWEEP_MS);
  sweeper.unref();
  s.onClose.push(async () => {
    clearInterval(sweeper);
    await mailer.settled();
    return listener?.close();
  });

  const verify = async (token: string): Promise<VerifiedToken | null> => {
    const c = await verifyAccessToken(secret, token);
    if (!c.ok) return null;
    const sid = c.payload.session_id;
    const sub = c.payload.sub;
    if (!isUuid(sid) || !isUuid(sub)) return null;
    const user = await sessions.activeUser(sid, sub);
    return user ? { user, sessionId: sid, expiresAt: (c.payload.exp ?? 0) * 1000 } : null;
  };
  s.authenticate = async (token) => (await verify(token))?.user ?? null;
  s.auth = { provider: 'local', verify, onSessionEnd: (l) => sessions.onSessionEnd(l) } satisfies AuthService;

  await app.register((scope, _opts, done) => {
    scope.setErrorHandler(authErrorHandler(log));
    // supabase-js posts some calls (logout) as JSON with no body at all: read that as {}.
    const json = scope.getDefaultJsonParser('error', 'error');
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
      const text = String(body);
      if (text.trim() === '') done(null, {});
      else void json(req, text, done);
    });
    scope.setNotFoundHandler((req, reply) => reply.code(404).send(errorBody(new AuthApiError(404, 'not_found', `No auth route ${req.method} ${req.url.split('?')[0]}`))));
    accountRoutes(scope, ctx);
    emailRoutes(scope, ctx);
    reauthenticationRoutes(scope, ctx);
    googleRoutes(scope, ctx);
    done();
  }, { prefix: '/auth/v1' });

  // GET /api/me/export and POST /api/me/delete (under /api: the app's API, with its error shape and OpenAPI entries).
  accountDataRoutes(app, ctx);

  const outbox = mailer.outbox;
  if (outbox) {
    // DEV_OUTBOX=true only: the emails auth would have sent, with their links and codes, for loopback peers.
    log.warn(
      { dev_outbox: true, host: config.HOST },
      'DEV OUTBOX IS ON (DEV_OUTBOX=true): the sign-in links and codes of every account are readable at GET /dev/outbox '
        + 'by anyone on this machine (loopback peers only). Never turn it on for a shared or public server.',
    );
    app.get('/dev/outbox', (req, reply) => {
      if (!isLocalRequest(req)) {
        return reply.code(403).send({ error: { code: 'forbidden', message: 'The dev outbox answers requests from this machine only (loopback, not through a proxy).' } });
      }
      const email = (req.query as Record<string, unknown>).email;
      // Some emails go out after their response (sendLinkLater): a test reading the outbox right after sees them.
      return mailer.settled().then(() => outbox.list(typeof email === 'string' ? email : undefined));
    });
  }
};
