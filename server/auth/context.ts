// What the /auth/v1 routes share: configuration, database, clock, sessions, mailer, limits; plus the helpers every
// route needs (the caller's session from its bearer token, signing a user in, sending an email link).
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Config } from '../config.js';
import type { Db, Queryable } from '../db/db.js';
import type { Logger } from '../log.js';
import { AuthApiError, validationFailed } from './errors.js';
import type { AuthLimits } from './limits.js';
import type { EmailKind, Mailer } from './mailer.js';
import { issueOneTimeToken, readPkce, type OttType, type Pkce } from './one-time-tokens.js';
import { safeRedirect } from './redirects.js';
import type { ClientInfo, Sessions, SessionJson } from './sessions.js';
import { verifyAccessToken } from './tokens.js';
import { findUserById, identitiesOf, normalizeEmail, type UserRow } from './users.js';

export type AuthContext = {
  config: Config;
  db: Db;
  log: Logger;
  secret: Uint8Array;
  /** The server's public base URL (no trailing slash): PUBLIC_URL, or this process's own address. */
  baseUrl: () => string;
  now: () => number;
  sessions: Sessions;
  mailer: Mailer;
  limits: AuthLimits;
};

export function clientInfo(req: FastifyRequest): ClientInfo {
  return { ip: req.ip, userAgent: req.headers['user-agent'] };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(v: unknown): v is string {
  return typeof v === 'string' && UUID.test(v);
}

/**
 * The caller's user and session from `Authorization: Bearer <access token>`, with GoTrue's errors: 401
 * no_authorization without a token, 403 bad_jwt for a bad or expired one, 403 session_not_found once the session ended
 * (supabase-js then drops its stored session).
 */
export async function requireSession(ctx: AuthContext, req: FastifyRequest): Promise<{ user: UserRow; sessionId: string }> {
  const h = req.headers.authorization;
  if (!h || !/^bearer /i.test(h)) throw new AuthApiError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
  const check = await verifyAccessToken(ctx.secret, h.slice(7).trim());
  if (!check.ok) {
    throw new AuthApiError(403, 'bad_jwt', check.reason === 'expired' ? 'invalid JWT: unable to parse or verify signature, token has invalid claims: token is expired' : 'invalid JWT: unable to parse or verify signature');
  }
  const sid = check.payload.session_id;
  const sub = check.payload.sub ?? '';
  if (!isUuid(sid) || !isUuid(sub)) throw new AuthApiError(403, 'bad_jwt', 'invalid claim: missing session_id claim');
  const active = await ctx.sessions.activeUser(sid, sub);
  if (!active) throw new AuthApiError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist');
  const user = await findUserById(ctx.db, sub);
  if (!user) throw new AuthApiError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
  return { user, sessionId: sid };
}

/** Creates a session for `user` (signed in by `method`, through `provider`) and returns GoTrue's session JSON. */
export async function signIn(ctx: AuthContext, q: Queryable, user: UserRow, how: { method: string; provider: string }, req: FastifyRequest): Promise<SessionJson> {
  const s = await ctx.sessions.create(q, user, how.method, clientInfo(req));
  await q.query('UPDATE looptale_auth.identities SET last_sign_in_at = $3 WHERE user_id = $1 AND provider = $2', [user.id, how.provider, new Date(ctx.now())]);
  return ctx.sessions.response(user, await identitiesOf(q, user.id), s.sessionId, s.amr, s.refreshToken);
}

const EMAIL_KIND: Record<OttType, EmailKind> = {
  signup: 'signup', invite: 'signup', magiclink: 'magiclink', recovery: 'recovery', email_change: 'email_change', reauthentication: 'reauthentication',
};

/**
 * Issues a one-time token and sends its email (the caller has checked `limits.emailSend` before changing anything).
 * Runs after the transaction that changed the user, so a failed send leaves a token nobody knows (harmless) rather
 * than rolling the account back.
 */
export async function sendLink(ctx: AuthContext, user: Pick<UserRow, 'id'>, type: OttType, to: string, redirectTo: string, pkce: Pkce | null): Promise<void> {
  const { secret, code } = await ctx.db.tx((q) => issueOneTimeToken(q, { userId: user.id, type, email: to, redirectTo, pkce }, ctx.now()));
  const link = new URL(`${ctx.baseUrl()}/auth/v1/verify`);
  link.searchParams.set('token', secret);
  link.searchParams.set('type', type);
  link.searchParams.set('redirect_to', redirectTo);
  try {
    await ctx.mailer.send({ to, kind: EMAIL_KIND[type], link: link.toString(), tokenHash: secret, code }, user.id);
  } catch (err) {
    ctx.log.error({ err: { message: (err as Error).message }, kind: type, user: user.id }, 'auth: sending an email failed');
    throw new AuthApiError(500, 'unexpected_failure', 'Error sending the email: try again in a moment.');
  }
}

/**
 * sendLink after the response: whether the address has an account then changes neither the answer nor its time
 * (sign-up with confirmations, magic link with create_user false, recovery). A failure is logged (by sendLink).
 */
export function sendLinkLater(ctx: AuthContext, user: Pick<UserRow, 'id'>, type: OttType, to: string, redirectTo: string, pkce: Pkce | null): void {
  ctx.mailer.track(sendLink(ctx, user, type, to, redirectTo, pkce).catch(() => undefined));
}

/** Sends an email that carries no link or code (a notice to the account's address). Failures are logged, not thrown. */
export async function sendNotice(ctx: AuthContext, user: Pick<UserRow, 'id'>, e: { to: string; kind: EmailKind; newEmail?: string }): Promise<void> {
  try {
    await ctx.mailer.send({ ...e, link: '', tokenHash: '', code: '' }, user.id);
  } catch (err) {
    ctx.log.error({ err: { message: (err as Error).message }, kind: e.kind, user: user.id }, 'auth: sending an email failed');
  }
}

/** Validates a JSON body with zod; a mismatch is GoTrue's 400 validation_failed naming the field. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const r = schema.safeParse(body ?? {});
  if (r.success) return r.data;
  const i = r.error.issues[0];
  throw validationFailed(`Invalid ${i?.path.join('.') || 'request body'}: ${i?.message ?? 'not valid'}`);
}

/** Postgres unique violation (a concurrent request took the email first). */
export function isUniqueViolation(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { code?: unknown }).code === '23505';
}

/** The request's redirect_to when its origin is allowed, else the site URL. */
export function redirectOf(ctx: AuthContext, req: FastifyRequest): string {
  const q = req.query as Record<string, unknown>;
  return safeRedirect(q.redirect_to, ctx.config.ALLOWED_ORIGINS, ctx.baseUrl());
}

/** A normalised email, or GoTrue's validation error (`missing` when empty). */
export function emailOrThrow(raw: unknown, missing: string): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw validationFailed(missing);
  const email = normalizeEmail(raw);
  if (!email) throw new AuthApiError(400, 'email_address_invalid', 'Unable to validate email address: invalid format');
  return email;
}

/** The request's PKCE challenge (null without one), or a validation error when malformed. */
export function pkceOrThrow(challenge: unknown, method: unknown): Pkce | null {
  const p = readPkce(challenge, method);
  if (p === 'invalid') throw validationFailed('code_challenge must be 43 to 128 URL-safe characters and code_challenge_method s256 or plain');
  return p;
}
