// /auth/v1 account routes in GoTrue's shapes: POST /signup, POST /token (password, refresh_token, pkce), GET and PUT
// /user, POST /logout, GET /settings, GET /health, GET /.well-known/jwks.json.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { checkJson, showJsonPath } from '../../engine/schema/json-guard.js';
import { emailOrThrow, isUniqueViolation, parseBody, pkceOrThrow, redirectOf, requireSession, sendLink, sendNotice, signIn, type AuthContext } from './context.js';
import { AuthApiError, invalidCredentials, validationFailed } from './errors.js';
import { consumeAuthCode } from './one-time-tokens.js';
import { burnPasswordCheck, hashPassword, needsRehash, passwordWeakness, verifyPassword } from './passwords.js';
import { checkProof, consumeNonce } from './reauthentication.js';
import { pkceMatches } from './tokens.js';
import { createUser, ensureEmailIdentity, findUserByEmail, findUserById, identitiesOf, isBanned, normalizeEmail, obfuscatedUserJson, userJson, type UserRow } from './users.js';

/** User metadata (user_metadata): at most 8 levels deep (the object itself is the first), 200 keys, 16 KiB of JSON. */
export const META_LIMITS = { maxDepth: 8, maxKeys: 200, maxBytes: 16_384 } as const;
function metaProblem(m: Record<string, unknown>): string | null {
  const bad = checkJson(m, { maxDepth: META_LIMITS.maxDepth, maxKeys: META_LIMITS.maxKeys });
  if (bad) return `${bad.path.length ? `${showJsonPath(bad.path)}: ` : ''}${bad.message}`;
  return Buffer.byteLength(JSON.stringify(m)) > META_LIMITS.maxBytes ? 'must be at most 16 KiB of JSON' : null;
}
const Meta = z.record(z.string(), z.unknown()).superRefine((m, ctx) => {
  const problem = metaProblem(m);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

const SignupBody = z.looseObject({
  email: z.string().optional(),
  phone: z.string().optional(),
  password: z.string().optional(),
  data: Meta.nullish(),
  code_challenge: z.string().nullish(),
  code_challenge_method: z.string().nullish(),
});

const PasswordBody = z.looseObject({ email: z.string().optional(), phone: z.string().optional(), password: z.string().optional() });
const RefreshBody = z.looseObject({ refresh_token: z.string().optional() });
const PkceBody = z.looseObject({ auth_code: z.string().optional(), code_verifier: z.string().optional() });

const UpdateBody = z.looseObject({
  email: z.string().optional(),
  password: z.string().optional(),
  data: Meta.nullish(),
  nonce: z.string().optional(),
  current_password: z.string().max(1024).optional(),
  code_challenge: z.string().nullish(),
  code_challenge_method: z.string().nullish(),
});

function weakPasswordError(password: string): AuthApiError | null {
  const w = passwordWeakness(password);
  return w ? new AuthApiError(422, 'weak_password', w.message, { weak_password: { message: w.message, reasons: w.reasons } }) : null;
}

/** Merges user metadata the way GoTrue does: top-level keys replace, a null value deletes its key. */
function mergeMeta(current: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out = { ...current };
  for (const [k, v] of Object.entries(patch)) {
    if (k === '__proto__' || k === 'constructor' || k === 'prototype') continue;
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

export function accountRoutes(app: FastifyInstance, ctx: AuthContext): void {
  const { config, db } = ctx;

  app.get('/health', () => ({ version: 'looptale', name: 'GoTrue', description: 'Looptale local authentication (Supabase Auth API)' }));

  app.get('/settings', () => ({
    external: { email: true, phone: false, google: Boolean(config.GOOGLE_CLIENT_ID), anonymous_users: false, apple: false, azure: false, github: false },
    disable_signup: false,
    mailer_autoconfirm: !config.EMAIL_CONFIRMATION,
    phone_autoconfirm: false,
    sms_provider: '',
    saml_enabled: false,
  }));

  // Access tokens are HS256 (a shared secret): there is no public key to publish.
  app.get('/.well-known/jwks.json', () => ({ keys: [] }));

  app.post('/signup', async (req) => {
    const b = parseBody(SignupBody, req.body);
    if (b.phone && !b.email) throw new AuthApiError(422, 'validation_failed', 'Phone sign-up is not available: use an email address');
    const email = emailOrThrow(b.email, 'Signup requires a valid email');
    if (!b.password) throw validationFailed('Signup requires a valid password', 422);
    const weak = weakPasswordError(b.password);
    if (weak) throw weak;
    const pkce = pkceOrThrow(b.code_challenge, b.code_challenge_method);
    const confirm = config.EMAIL_CONFIRMATION;
    await ctx.limits.check('signup', req.ip, email);
    if (confirm) await ctx.limits.emailSend(email);
    const redirectTo = redirectOf(ctx, req);
    const hash = await hashPassword(b.password);
    const meta = b.data ?? {};
    type Outcome = { kind: 'error'; error: AuthApiError } | { kind: 'obfuscated' } | { kind: 'session'; session: unknown } | { kind: 'confirm'; user: UserRow };
    const register = (): Promise<Outcome> => db.tx(async (q): Promise<Outcome> => {
      const now = new Date(ctx.now());
      let user = await findUserByEmail(q, email, true);
      // An account whose address is proved is never handed to a new sign-up; with confirmations off neither is one
      // with a password (its player may be playing). With confirmations off a new account gets a session at once, so
      // the refusal cannot be hidden.
      if (user && (user.email_confirmed_at || (!confirm && user.encrypted_password))) {
        if (!confirm) return { kind: 'error', error: new AuthApiError(422, 'user_already_exists', 'User already registered') };
        return { kind: 'obfuscated' };
      }
      if (user) {
        // Not proved yet (a magic-link request nobody followed, or a sign-up awaiting its link): whoever proves the
        // address next owns it, with the password given last.
        const merged = mergeMeta(user.raw_user_meta_data, meta);
        const problem = metaProblem(merged);
        if (problem) return { kind: 'error', error: validationFailed(`Invalid data: the metadata would become too large: ${problem}`) };
        const r = await q.query<UserRow>(
          'UPDATE looptale_auth.users SET encrypted_password = $2, raw_user_meta_data = $3, updated_at = $4 WHERE id = $1 RETURNING *',
          [user.id, hash, JSON.stringify(merged), now],
        );
        user = r.rows[0]!;
      } else {
        // A sign-up proves nothing about the address: it stays unconfirmed until a link sent to it is followed.
        user = await createUser(q, { email, passwordHash: hash, confirmed: false, provider: 'email', userMeta: meta }, now);
        if (!user) return { kind: 'error', error: new AuthApiError(422, 'user_already_exists', 'User already registered') };
      }
      await ensureEmailIdentity(q, user, now);
      if (!confirm) return { kind: 'session', session: await signIn(ctx, q, user, { method: 'password', provider: 'email' }, req) };
      return { kind: 'confirm', user };
    });
    if (confirm) {
      // With confirmations on, every sign-up gets the same answer at the same time, whether the address has an account
      // or not: the account is written and its link sent after the answer (a write costs a commit an existing address
      // would not), and nothing else is told until the link is followed.
      ctx.mailer.track(register().then(async (out) => {
        if (out.kind === 'confirm') await sendLink(ctx, out.user, 'signup', email, redirectTo, pkce);
        else if (out.kind === 'error') ctx.log.info({ code: out.error.errorCode }, 'auth: a sign-up was not applied');
      }).catch((err: unknown) => ctx.log.error({ err: { message: (err as Error).message } }, 'auth: a sign-up failed after its answer')));
      return obfuscatedUserJson(email, meta, new Date(ctx.now()));
    }
    const out = await register();
    if (out.kind === 'error') throw out.error;
    if (out.kind === 'session') return out.session;
    throw new Error(`sign-up without confirmation ended as ${out.kind}`);
  });

  app.post('/token', async (req) => {
    const grant = (req.query as Record<string, unknown>).grant_type;
    try {
      switch (grant) {
        case 'password':
          return await passwordGrant(ctx, req);
        case 'refresh_token':
          return await refreshGrant(ctx, req);
        case 'pkce':
          return await pkceGrant(ctx, req);
        default:
          throw validationFailed(`unsupported_grant_type: ${typeof grant === 'string' ? grant.slice(0, 40) : '(none)'} (use password, refresh_token or pkce)`);
      }
    } catch (e) {
      // OAuth 2 clients read error / error_description from the token endpoint.
      if (e instanceof AuthApiError && e.status < 500) {
        const known = grant === 'password' || grant === 'refresh_token' || grant === 'pkce';
        throw new AuthApiError(e.status, e.errorCode, e.message, { ...e.extra, error: known ? 'invalid_grant' : 'unsupported_grant_type', error_description: e.message }, e.headers);
      }
      throw e;
    }
  });

  app.get('/user', async (req) => {
    const { user } = await requireSession(ctx, req);
    return userJson(user, await identitiesOf(db, user.id));
  });

  app.put('/user', async (req) => {
    const { user, sessionId } = await requireSession(ctx, req);
    const b = parseBody(UpdateBody, req.body);
    let hash: string | null = null;
    if (b.password !== undefined) {
      const weak = weakPasswordError(b.password);
      if (weak) throw weak;
      if (user.encrypted_password && (await verifyPassword(b.password, user.encrypted_password))) {
        throw new AuthApiError(422, 'same_password', 'New password should be different from the old password.');
      }
      hash = await hashPassword(b.password);
    }
    let newEmail: string | null = null;
    if (b.email !== undefined) {
      newEmail = emailOrThrow(b.email, 'Unable to validate email address: invalid format');
      if (newEmail === user.email) newEmail = null;
    }
    const pkce = pkceOrThrow(b.code_challenge, b.code_challenge_method);
    // The account's keys change only with more than the access token (reauthentication.ts).
    const proof = hash || newEmail ? await checkProof(ctx, req, user, sessionId, { nonce: b.nonce, currentPassword: b.current_password }) : null;
    if (newEmail) await ctx.limits.emailSend(newEmail);
    const out = await db.tx(async (q) => {
      const now = new Date(ctx.now());
      let u = (await findUserById(q, user.id, true))!;
      if (proof === 'nonce') {
        const bad = await consumeNonce(ctx, q, u, b.nonce!);
        if (bad) return { error: bad, ended: [] };
      }
      // Each patch is checked at the edge; what it adds up to must fit too (checked before anything changes).
      const merged = b.data ? mergeMeta(u.raw_user_meta_data, b.data) : null;
      const problem = merged ? metaProblem(merged) : null;
      if (problem) return { error: validationFailed(`Invalid data: the metadata would become too large: ${problem}`), ended: [] };
      let ended: Awaited<ReturnType<typeof ctx.sessions.end>> = [];
      if (hash) {
        await q.query('UPDATE looptale_auth.users SET encrypted_password = $2, updated_at = $3 WHERE id = $1', [u.id, hash, now]);
        // A new password signs every other device out (their sockets close through onSessionEnd).
        ended = await ctx.sessions.end(q, { userId: u.id, exceptSessionId: sessionId }, 'password_change');
      }
      if (merged) {
        await q.query('UPDATE looptale_auth.users SET raw_user_meta_data = $2, updated_at = $3 WHERE id = $1', [u.id, JSON.stringify(merged), now]);
      }
      if (newEmail) {
        const other = await findUserByEmail(q, newEmail);
        if (other && other.id !== u.id) return { error: new AuthApiError(422, 'email_exists', 'A user with this email address has already been registered'), ended: [] };
        // Always confirmed on the new address, whatever EMAIL_CONFIRMATION says (a token alone must not move the
        // account to an address its holder controls); the old address is told.
        await q.query('UPDATE looptale_auth.users SET email_change = $2, updated_at = $3 WHERE id = $1', [u.id, newEmail, now]);
      }
      u = (await findUserById(q, u.id))!;
      await ensureEmailIdentity(q, u, now);
      return { error: null, user: u, ended };
    }).catch((e: unknown) => {
      if (isUniqueViolation(e)) return { error: new AuthApiError(422, 'email_exists', 'A user with this email address has already been registered'), ended: [] };
      throw e;
    });
    if (out.error) throw out.error;
    ctx.sessions.announce(out.ended, 'password_change');
    if (newEmail) {
      await sendLink(ctx, out.user, 'email_change', newEmail, redirectOf(ctx, req), pkce);
      if (user.email) await sendNotice(ctx, user, { to: user.email, kind: 'email_change_notice', newEmail });
    }
    const fresh = (await findUserById(db, user.id))!;
    return userJson(fresh, await identitiesOf(db, fresh.id));
  });

  app.post('/logout', async (req, reply) => {
    const { user, sessionId } = await requireSession(ctx, req);
    const scope = (req.query as Record<string, unknown>).scope ?? 'global';
    if (scope !== 'global' && scope !== 'local' && scope !== 'others') throw validationFailed(`Unsupported logout scope ${JSON.stringify(scope)}`);
    const filter = scope === 'local' ? { sessionId } : scope === 'others' ? { userId: user.id, exceptSessionId: sessionId } : { userId: user.id };
    const ended = await db.tx((q) => ctx.sessions.end(q, filter, 'logout'));
    ctx.sessions.announce(ended, 'logout');
    return reply.code(204).send();
  });
}

async function passwordGrant(ctx: AuthContext, req: FastifyRequest): Promise<unknown> {
  const b = parseBody(PasswordBody, req.body);
  if (b.phone && !b.email) throw new AuthApiError(400, 'validation_failed', 'Phone sign-in is not available: use an email address');
  const email = normalizeEmail(b.email);
  if (!email || !b.password) throw invalidCredentials();
  await ctx.limits.check('signin', req.ip);
  await ctx.limits.signIn.check(email, req.ip);
  const user = await findUserByEmail(ctx.db, email);
  if (!user?.encrypted_password) {
    await burnPasswordCheck(b.password);
    await ctx.limits.signIn.failed(email, req.ip);
    throw invalidCredentials();
  }
  if (!(await verifyPassword(b.password, user.encrypted_password))) {
    await ctx.limits.signIn.failed(email, req.ip);
    throw invalidCredentials();
  }
  await ctx.limits.signIn.succeeded(email, req.ip);
  if (isBanned(user, ctx.now())) throw new AuthApiError(400, 'user_banned', 'User is banned');
  // With confirmations off an account plays before its address is proved (and loses this password if it never is).
  if (!user.email_confirmed_at && ctx.config.EMAIL_CONFIRMATION) throw new AuthApiError(400, 'email_not_confirmed', 'Email not confirmed');
  const rehash = needsRehash(user.encrypted_password) ? await hashPassword(b.password) : null;
  return ctx.db.tx(async (q) => {
    // An older hash (scrypt, or argon2id at a lower cost) is replaced now that the password is known; only if it is
    // still the one verified, so a password changed meanwhile is not overwritten.
    if (rehash) await q.query('UPDATE looptale_auth.users SET encrypted_password = $2 WHERE id = $1 AND encrypted_password = $3', [user.id, rehash, user.encrypted_password]);
    return signIn(ctx, q, user, { method: 'password', provider: 'email' }, req);
  });
}

async function refreshGrant(ctx: AuthContext, req: FastifyRequest): Promise<unknown> {
  const b = parseBody(RefreshBody, req.body);
  if (!b.refresh_token) throw validationFailed('refresh_token required');
  await ctx.limits.check('refresh', req.ip);
  const r = await ctx.sessions.rotate(b.refresh_token);
  if (!r.ok) throw r.error;
  const user = await findUserById(ctx.db, r.userId);
  if (!user) throw new AuthApiError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
  return ctx.sessions.response(user, await identitiesOf(ctx.db, user.id), r.sessionId, r.amr, r.refreshToken);
}

async function pkceGrant(ctx: AuthContext, req: FastifyRequest): Promise<unknown> {
  const b = parseBody(PkceBody, req.body);
  if (!b.auth_code || !b.code_verifier) throw validationFailed('invalid request: both auth code and code verifier should be non-empty');
  await ctx.limits.check('verify', req.ip);
  const verifier = b.code_verifier;
  const out = await ctx.db.tx(async (q) => {
    const flow = await consumeAuthCode(q, b.auth_code!);
    if (!flow) return { error: new AuthApiError(404, 'flow_state_not_found', 'invalid flow state, no valid flow state found') };
    if (flow.expires_at.getTime() <= ctx.now()) return { error: new AuthApiError(400, 'flow_state_expired', 'invalid flow state, flow state has expired') };
    if (!pkceMatches(verifier, flow.code_challenge, flow.code_challenge_method)) {
      return { error: new AuthApiError(403, 'bad_code_verifier', 'code challenge does not match previously saved code verifier') };
    }
    const user = await findUserById(q, flow.user_id, true);
    if (!user) return { error: new AuthApiError(404, 'user_not_found', 'User not found') };
    if (isBanned(user, ctx.now())) return { error: new AuthApiError(400, 'user_banned', 'User is banned') };
    const provider = flow.authentication_method === 'oauth' ? 'google' : 'email';
    return { error: null, session: await signIn(ctx, q, user, { method: flow.authentication_method, provider }, req) };
  });
  if (out.error) throw out.error;
  return out.session;
}
