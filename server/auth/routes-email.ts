// /auth/v1 email routes in GoTrue's shapes: POST /otp (magic link), POST /recover (password reset), GET /verify (the
// link in the email: 303 to redirect_to with the session in the fragment, or ?code= for PKCE) and POST /verify
// (token_hash, or email + 6-digit code: the session as JSON), POST /resend (confirmation or email-change link again).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Queryable } from '../db/db.js';
import { emailOrThrow, parseBody, pkceOrThrow, redirectOf, sendLink, sendLinkLater, signIn, type AuthContext } from './context.js';
import { AuthApiError, otpExpired, validationFailed } from './errors.js';
import type { Ended } from './sessions.js';
import { consumeCode, consumeLinkToken, issueAuthCode, OTT_TYPES, type OttRow, type OttType } from './one-time-tokens.js';
import { errorRedirect, safeRedirect, withFragment, withQuery } from './redirects.js';
import { createUser, ensureEmailIdentity, findUserByEmail, findUserById, isBanned, normalizeEmail, type UserRow } from './users.js';

const OtpBody = z.looseObject({
  email: z.string().optional(),
  phone: z.string().optional(),
  data: z.record(z.string(), z.unknown()).nullish(),
  create_user: z.boolean().optional(),
  code_challenge: z.string().nullish(),
  code_challenge_method: z.string().nullish(),
});

const RecoverBody = z.looseObject({
  email: z.string().nullish(),
  code_challenge: z.string().nullish(),
  code_challenge_method: z.string().nullish(),
});

const ResendBody = z.looseObject({ email: z.string().optional(), phone: z.string().optional(), type: z.string().optional() });

const VerifyBody = z.looseObject({
  type: z.string().optional(),
  token: z.string().optional(),
  token_hash: z.string().optional(),
  email: z.string().optional(),
  phone: z.string().optional(),
});

/** Which stored token types a verification type accepts ('email' is the code from a magic link or sign-up email). */
function typesFor(type: unknown): readonly OttType[] | null {
  if (type === 'email') return ['magiclink', 'signup', 'invite'];
  return typeof type === 'string' && (OTT_TYPES as readonly string[]).includes(type) ? [type as OttType] : null;
}

type Applied = { ok: true; user: UserRow; ended: Ended[] } | { ok: false; error: AuthApiError };

/** What a consumed token does: confirms the email (sign-up, invite, magic link, recovery) or applies an email change. */
async function applyToken(ctx: AuthContext, q: Queryable, row: OttRow, now: number): Promise<Applied> {
  const user = await findUserById(q, row.user_id, true);
  if (!user) return { ok: false, error: otpExpired() };
  if (isBanned(user, now)) return { ok: false, error: new AuthApiError(403, 'user_banned', 'User is banned') };
  const at = new Date(now);
  let ended: Ended[] = [];
  if (row.token_type === 'email_change') {
    if (user.email_change !== row.relates_to) return { ok: false, error: otpExpired() };
    const other = await findUserByEmail(q, row.relates_to);
    if (other && other.id !== user.id) return { ok: false, error: new AuthApiError(422, 'email_exists', 'A user with this email address has already been registered') };
    await q.query(
      'UPDATE looptale_auth.users SET email = $2, email_change = NULL, email_change_sent_at = NULL, email_confirmed_at = COALESCE(email_confirmed_at, $3), updated_at = $3 WHERE id = $1',
      [user.id, row.relates_to, at],
    );
  } else {
    // The address changed since the email went out: the old link no longer proves anything.
    if (user.email !== row.relates_to) return { ok: false, error: otpExpired() };
    if (!user.email_confirmed_at) {
      await q.query('UPDATE looptale_auth.users SET email_confirmed_at = $2, updated_at = $2 WHERE id = $1', [user.id, at]);
      // A magic link or a reset proves the address to someone who may never have signed up: a password nobody proved
      // (set by whoever signed the address up) is dropped, and every session it opened ends (pre-hijacking). The
      // sign-up's own confirmation link keeps the password it confirms.
      if (user.encrypted_password && (row.token_type === 'magiclink' || row.token_type === 'recovery')) {
        await q.query('UPDATE looptale_auth.users SET encrypted_password = NULL WHERE id = $1', [user.id]);
        ended = await ctx.sessions.end(q, { userId: user.id }, 'unproven_account');
      }
    }
  }
  const fresh = (await findUserById(q, user.id))!;
  await ensureEmailIdentity(q, fresh, at);
  return { ok: true, user: fresh, ended };
}

const amrMethod = (type: OttType): string => (type === 'recovery' ? 'recovery' : type === 'email_change' ? 'email_change' : 'otp');

export function emailRoutes(app: FastifyInstance, ctx: AuthContext): void {
  const { db } = ctx;

  app.post('/otp', async (req) => {
    const b = parseBody(OtpBody, req.body);
    if (b.phone && !b.email) throw new AuthApiError(400, 'validation_failed', 'Sign-in by phone is not available: use an email address');
    const email = emailOrThrow(b.email, 'An email address is required to send a magic link');
    const pkce = pkceOrThrow(b.code_challenge, b.code_challenge_method);
    await ctx.limits.check('otp', req.ip, email);
    // Counted before the transaction (the shared counters take a connection of their own), whether or not an email
    // ends up sent, as for /recover.
    await ctx.limits.emailSend(email);
    const redirectTo = redirectOf(ctx, req);
    const out = await db.tx(async (q) => {
      const now = new Date(ctx.now());
      let user = await findUserByEmail(q, email);
      if (!user) {
        // Answered as for an account (no email goes out), so the form cannot tell which addresses have one.
        if (b.create_user === false) return { error: null, user: null };
        user = await createUser(q, { email, passwordHash: null, confirmed: false, provider: 'email', userMeta: b.data ?? {} }, now);
        if (!user) return { error: new AuthApiError(409, 'conflict', 'Another request is creating this account: try again.') };
        await ensureEmailIdentity(q, user, now);
        return { error: null, user };
      }
      if (isBanned(user, now.getTime())) return { error: null, user: null };
      return { error: null, user };
    });
    if (out.error) throw out.error;
    // Without create_user the link goes out after the response, which then says nothing about the address; with it
    // every address gets an email, and a failure to send is reported.
    if (out.user && b.create_user === false) sendLinkLater(ctx, out.user, 'magiclink', email, redirectTo, pkce);
    else if (out.user) await sendLink(ctx, out.user, 'magiclink', email, redirectTo, pkce);
    return {};
  });

  app.post('/recover', async (req) => {
    const b = parseBody(RecoverBody, req.body);
    const email = emailOrThrow(b.email, 'Please enter your email address');
    const pkce = pkceOrThrow(b.code_challenge, b.code_challenge_method);
    await ctx.limits.check('recover', req.ip, email);
    // Counted whether or not the account exists, so the answer says nothing about it.
    await ctx.limits.emailSend(email);
    const user = await findUserByEmail(db, email);
    if (user && !isBanned(user, ctx.now())) sendLinkLater(ctx, user, 'recovery', email, redirectOf(ctx, req), pkce);
    return {};
  });

  // supabase-js resend(): the sign-up confirmation again, or the email-change link again (to the new address).
  app.post('/resend', async (req) => {
    const b = parseBody(ResendBody, req.body);
    if (b.type !== 'signup' && b.type !== 'email_change') throw validationFailed('Unsupported resend type: use signup or email_change');
    const email = emailOrThrow(b.email, 'An email address is required to resend an email');
    await ctx.limits.check('otp', req.ip, email);
    await ctx.limits.emailSend(email);
    const user = await findUserByEmail(db, email);
    if (!user || isBanned(user, ctx.now())) return {};
    if (b.type === 'signup' && !user.email_confirmed_at) await sendLink(ctx, user, 'signup', email, redirectOf(ctx, req), null);
    if (b.type === 'email_change' && user.email_change) {
      await ctx.limits.emailSend(user.email_change);
      await sendLink(ctx, user, 'email_change', user.email_change, redirectOf(ctx, req), null);
    }
    return {};
  });

  app.get('/verify', async (req, reply) => {
    const q = req.query as Record<string, unknown>;
    const redirectTo = safeRedirect(q.redirect_to, ctx.config.ALLOWED_ORIGINS, ctx.baseUrl());
    const type = q.type;
    const types = type === 'email' ? null : typesFor(type);
    const fail = (e: AuthApiError, pkce: boolean) => reply.redirect(errorRedirect(redirectTo, e.status, e.errorCode, e.message, pkce), 303);
    if (typeof q.token !== 'string' || q.token === '' || !types) {
      return fail(new AuthApiError(403, 'otp_expired', 'Email link is invalid or has expired'), false);
    }
    await ctx.limits.check('verify', req.ip);
    const token = q.token;
    const out = await db.tx(async (tx) => {
      const row = await consumeLinkToken(tx, token, types, ctx.now());
      if (!row) return { error: new AuthApiError(403, 'otp_expired', 'Email link is invalid or has expired'), pkce: false };
      const pkce = row.code_challenge && row.code_challenge_method ? { challenge: row.code_challenge, method: row.code_challenge_method as 's256' | 'plain' } : null;
      const applied = await applyToken(ctx, tx, row, ctx.now());
      if (!applied.ok) return { error: applied.error, pkce: pkce !== null };
      if (pkce) return { error: null, ended: applied.ended, code: await issueAuthCode(tx, applied.user.id, pkce, row.token_type, ctx.now()) };
      return { error: null, ended: applied.ended, session: await signIn(ctx, tx, applied.user, { method: amrMethod(row.token_type), provider: 'email' }, req) };
    });
    if (out.error) return fail(out.error, out.pkce);
    ctx.sessions.announce(out.ended, 'unproven_account');
    if (out.code) return reply.redirect(withQuery(redirectTo, { code: out.code }), 303);
    const s = out.session!;
    return reply.redirect(withFragment(redirectTo, {
      access_token: s.access_token, expires_at: String(s.expires_at), expires_in: String(s.expires_in),
      refresh_token: s.refresh_token, token_type: s.token_type, type: String(type),
    }), 303);
  });

  app.post('/verify', async (req) => {
    const b = parseBody(VerifyBody, req.body);
    const types = typesFor(b.type);
    if (!b.type) throw validationFailed('Verify requires a verification type');
    if (!types) throw validationFailed(`Unsupported verification type ${JSON.stringify(b.type.slice(0, 40))}`);
    const out = await verifyPost(ctx, req, b, types);
    if (out.error) throw out.error;
    ctx.sessions.announce(out.ended, 'unproven_account');
    return out.session;
  });
}

async function verifyPost(ctx: AuthContext, req: FastifyRequest, b: z.infer<typeof VerifyBody>, types: readonly OttType[]) {
  let consume: (q: Queryable) => Promise<OttRow | null>;
  if (b.token_hash) {
    await ctx.limits.check('verify', req.ip);
    const hash = b.token_hash;
    consume = (q) => consumeLinkToken(q, hash, types, ctx.now());
  } else if (b.token && b.email) {
    const email = normalizeEmail(b.email);
    if (!email) throw new AuthApiError(400, 'email_address_invalid', 'Unable to validate email address: invalid format');
    await ctx.limits.check('verify', req.ip, email);
    const code = b.token.replace(/[\s-]/g, '');
    if (!/^\d{6}$/.test(code)) throw otpExpired();
    consume = (q) => consumeCode(q, email, code, types, ctx.now());
  } else if (b.phone) {
    throw validationFailed('Verification by phone is not available: use an email address');
  } else {
    throw validationFailed('Verify requires a token_hash, or an email and a token');
  }
  // Returns errors as values so that a wrong code's failed attempt is committed.
  return ctx.db.tx(async (q) => {
    const row = await consume(q);
    if (!row) return { error: otpExpired() };
    const applied = await applyToken(ctx, q, row, ctx.now());
    if (!applied.ok) return { error: applied.error };
    return { error: null, ended: applied.ended, session: await signIn(ctx, q, applied.user, { method: amrMethod(row.token_type), provider: 'email' }, req) };
  });
}
