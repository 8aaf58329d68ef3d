// Server configuration: environment variables (and CLI flags) parsed once by zod. Defaults run locally with nothing
// installed beyond `npm ci`. A bad value stops start-up with a message naming it.
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { parseRenderSizes } from './media/render-sizes.js';

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');
const list = z.string().transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean));

export const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8787),
  HOST: z.string().min(1).default('127.0.0.1'),
  /** Public base URL (links in emails, OAuth redirects); defaults to http://localhost:PORT. */
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  /** A PostgreSQL URL: use it instead of the embedded PGlite in DATA_DIR (any number of server processes). */
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://').optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /** PGlite's buffer cache (PostgreSQL shared_buffers, e.g. 16MB or 256MB): memory the embedded database keeps. */
  PGLITE_SHARED_BUFFERS: z.string().regex(/^\d+(kB|MB|GB)$/, 'must be a size such as 16MB').default('16MB'),
  /**
   * Apply supabase/migrations on start (one ledger with `supabase db push`, so either may apply them). false: only
   * check that every migration is applied, and refuse to start otherwise.
   */
  MIGRATE_ON_START: bool.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /**
   * Origins allowed for browsers (CORS, auth redirects and the WebSocket Origin check); requests without Origin are
   * allowed. Development origins (Vite's http://localhost:5173) are added by `npm run dev` (scripts/dev.ts), never here.
   */
  ALLOWED_ORIGINS: list.default(['http://localhost:8787', 'http://127.0.0.1:8787']),
  /**
   * Host names the server answers besides localhost, 127.0.0.1, [::1], PUBLIC_URL's and ALLOWED_ORIGINS' (requests for
   * any other Host get 421: DNS rebinding). A deployment reached by another name (HOST=0.0.0.0 behind a proxy) lists
   * it here; `*` answers any host.
   */
  ALLOWED_HOSTS: list.default([]),
  /** Import the fixture stories at first start (each missing one, until one start has done them all: crash-safe). */
  SEED_STORIES: bool.default(true),
  STORIES_DIR: z.string().default('fixtures/stories'),
  MEDIA_DIR: z.string().optional(),
  /**
   * Where story media live: disk (MEDIA_DIR; the default without DATABASE_URL), database (the default with
   * DATABASE_URL: every process serves every file) or supabase (the project's Storage: SUPABASE_URL and
   * SUPABASE_SERVICE_ROLE_KEY).
   */
  MEDIA_STORE: z.enum(['disk', 'database', 'supabase']).optional(),
  /** The Supabase project's URL (https://<ref>.supabase.co), for MEDIA_STORE=supabase. */
  SUPABASE_URL: z.url().optional(),
  /** The project's service-role key (server-side only), for MEDIA_STORE=supabase. */
  SUPABASE_SERVICE_ROLE_KEY: z.string().min(1).optional(),
  /**
   * Other origins the web app may load images and sounds from (story files naming absolute URLs there): added to its
   * Content-Security-Policy's img-src, media-src and connect-src.
   */
  MEDIA_ORIGINS: list.pipe(z.array(z.url().refine((u) => /^https?:\/\//.test(u), 'must be http(s)://...'))).default([]),
  /** Largest uploaded media file (bytes). */
  MEDIA_MAX_FILE_BYTES: z.coerce.number().int().min(1024).max(1024 * 1024 * 1024).default(10 * 1024 * 1024),
  /** Bytes one user may upload per 24 hours, across stories (authors and admins alike). */
  MEDIA_USER_DAILY_BYTES: z.coerce.number().int().min(0).default(200 * 1024 * 1024),
  /** Bytes of media one story may store in total (images and sounds, however they got there). */
  MEDIA_STORY_BYTES: z.coerce.number().int().min(0).default(500 * 1024 * 1024),
  /** Largest story archive (story.json and its media as tar), in and out, and the most files in one. */
  STORY_ARCHIVE_MAX_BYTES: z.coerce.number().int().min(64 * 1024).max(4 * 1024 * 1024 * 1024).default(200 * 1024 * 1024),
  STORY_ARCHIVE_MAX_FILES: z.coerce.number().int().min(2).max(100_000).default(1000),
  /** Bytes of media the stories one author writes may store together. */
  MEDIA_AUTHOR_BYTES: z.coerce.number().int().min(0).default(2 * 1024 * 1024 * 1024),
  /** Sizes rendered besides the spec's, "WIDTHxHEIGHT@QUALITY" separated by commas. */
  MEDIA_RENDER_SIZES: z.string().default('').refine((v) => typeof parseRenderSizes(v) !== 'string', { message: 'must be WIDTHxHEIGHT@QUALITY,... (1..4096, quality 1..100)' }),
  /** Images rendered at once (each on one libvips thread), and renders waiting beyond those (503 past it). */
  RENDER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(Math.max(1, Math.min(2, availableParallelism()))),
  RENDER_QUEUE: z.coerce.number().int().min(0).max(10_000).default(32),
  /** Fresh renders (not cached variants) one client address may cause per minute (429 past it). */
  RENDER_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  /** The web app's build served at / (default: web/dist of this checkout). */
  WEB_DIST: z.string().optional(),
  // Auth
  AUTH_PROVIDER: z.enum(['local', 'supabase']).default('local'),
  /** Secret that signs local access tokens; generated and kept in the database when unset. */
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ACCESS_TOKEN_TTL_S: z.coerce.number().int().min(60).max(86400).default(3600),
  /**
   * Seconds during which a rotated refresh token may be presented again (Supabase Auth's
   * REFRESH_TOKEN_REUSE_INTERVAL, 10 s): two tabs refreshing at once, or a lost response, do not sign the player out.
   * Presented later, it ends the session. 0: any reuse ends it.
   */
  REFRESH_TOKEN_REUSE_INTERVAL_S: z.coerce.number().int().min(0).max(300).default(10),
  /**
   * A password or email change (PUT /auth/v1/user) needs a session signed in at most this many seconds ago, or the
   * current password, or a code from GET /auth/v1/reauthenticate: a stolen access token alone cannot take the account.
   */
  REAUTHENTICATION_WINDOW_S: z.coerce.number().int().min(0).max(86400).default(600),
  EMAIL_CONFIRMATION: bool.default(false),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://').optional(),
  SMTP_FROM: z.string().default('Looptale <no-reply@localhost>'),
  /**
   * Development outbox (GET /dev/outbox): every email's link and code, readable by loopback peers. Opt-in: whoever
   * reads it can sign in as anyone. Refused with NODE_ENV=production.
   */
  DEV_OUTBOX: bool.default(false),
  /** POST /api/player-stories accepts `seed` (online replays of a transcript). Opt-in; refused in production. */
  ALLOW_RUN_SEED: bool.default(false),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  /** OpenID issuer for Google sign-in (a test server in tests). */
  GOOGLE_ISSUER: z.url().default('https://accounts.google.com'),
  SUPABASE_JWT_SECRET: z.string().optional(),
  SUPABASE_JWKS_URL: z.url().optional(),
  // Realtime
  WS_MAX_FRAME_BYTES: z.coerce.number().int().min(1024).max(64 * 1024 * 1024).default(2 * 1024 * 1024),
  /** Messages a socket may send per 10 seconds before it is closed with 1008. */
  WS_RATE_LIMIT: z.coerce.number().int().min(1).default(60),
  WS_PING_MS: z.coerce.number().int().min(100).default(30_000),
  /** Open sockets per user (a new one closes the oldest), messages per 10 s per user across them, new sockets a minute. */
  WS_MAX_SOCKETS_PER_USER: z.coerce.number().int().min(1).max(1000).default(5),
  WS_USER_RATE_LIMIT: z.coerce.number().int().min(1).default(120),
  WS_CONNECTS_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  /** Bytes queued to a socket before it counts as a slow consumer and is dropped. */
  WS_MAX_BUFFERED_BYTES: z.coerce.number().int().min(1024).default(8 * 1024 * 1024),
  /**
   * Who may read GET /metrics: local (loopback peers, not through a proxy), token (Authorization: Bearer
   * METRICS_TOKEN, from anywhere), public, or off. Default: token when METRICS_TOKEN is set, else local.
   */
  METRICS_ACCESS: z.enum(['local', 'token', 'public', 'off']).optional(),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** HTTP requests per minute per client address. */
  HTTP_RATE_LIMIT: z.coerce.number().int().min(1).default(600),
  HTTP_BODY_LIMIT: z.coerce.number().int().min(1024).default(1024 * 1024),
  /**
   * Take client addresses from X-Forwarded-For set by the reverse proxies in front (only behind them: otherwise clients
   * could spoof their address). The last TRUST_PROXY_HOPS entries are the proxies' own: what a client wrote before them
   * is never taken as its address.
   */
  TRUST_PROXY: bool.default(false),
  /** Proxies between clients and the server (a load balancer: 1; a CDN in front of it: 2). */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(1).max(10).default(1),
  /** Multiplies the per-address and per-email auth rate limits (load tests from one machine raise it). */
  AUTH_RATE_LIMIT_SCALE: z.coerce.number().min(0.01).max(100000).default(1),
}).superRefine((c, ctx) => {
  if (c.MEDIA_STORE === 'supabase' && (!c.SUPABASE_URL || !c.SUPABASE_SERVICE_ROLE_KEY)) {
    ctx.addIssue({ code: 'custom', path: ['MEDIA_STORE'], message: 'MEDIA_STORE=supabase needs SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY' });
  }
  if (c.MEDIA_STORE === 'database' && !c.DATABASE_URL) {
    ctx.addIssue({ code: 'custom', path: ['MEDIA_STORE'], message: 'MEDIA_STORE=database needs DATABASE_URL (with the embedded database, media stay on disk)' });
  }
  if (c.AUTH_PROVIDER === 'supabase' && !c.SUPABASE_JWT_SECRET && !c.SUPABASE_JWKS_URL) {
    ctx.addIssue({ code: 'custom', path: ['SUPABASE_JWT_SECRET'], message: 'AUTH_PROVIDER=supabase needs SUPABASE_JWT_SECRET or SUPABASE_JWKS_URL' });
  }
  if (c.METRICS_ACCESS === 'token' && !c.METRICS_TOKEN) {
    ctx.addIssue({ code: 'custom', path: ['METRICS_TOKEN'], message: 'METRICS_ACCESS=token needs METRICS_TOKEN (at least 16 characters)' });
  }
  if (c.NODE_ENV === 'production') {
    for (const key of ['DEV_OUTBOX', 'ALLOW_RUN_SEED'] as const) {
      if (c[key]) ctx.addIssue({ code: 'custom', path: [key], message: `${key}=true is a development switch: not allowed with NODE_ENV=production` });
    }
  }
  if ((c.GOOGLE_CLIENT_ID === undefined) !== (c.GOOGLE_CLIENT_SECRET === undefined)) {
    ctx.addIssue({ code: 'custom', path: ['GOOGLE_CLIENT_SECRET'], message: 'set both GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET, or neither' });
  }
});
export type Config = z.infer<typeof ConfigSchema>;

export class ConfigError extends Error {}

/** Parses the environment (plus overrides from flags); throws a ConfigError naming each bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env, overrides: Record<string, string | undefined> = {}): Config {
  const input: Record<string, string> = {};
  for (const key of Object.keys(ConfigSchema.shape)) {
    const v = overrides[key] ?? env[key];
    if (v !== undefined && v !== '') input[key] = v;
  }
  const r = ConfigSchema.safeParse(input);
  if (!r.success) {
    throw new ConfigError(`Invalid configuration:\n${r.error.issues.map((i) => `  ${i.path.join('.') || '(config)'}: ${i.message}`).join('\n')}`);
  }
  return r.data;
}

export function publicUrl(c: Config): string {
  return (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, '');
}

export function devOutboxEnabled(c: Config): boolean {
  return c.DEV_OUTBOX;
}

export function metricsAccess(c: Config): 'local' | 'token' | 'public' | 'off' {
  return c.METRICS_ACCESS ?? (c.METRICS_TOKEN ? 'token' : 'local');
}
