// What a change of the account's keys (password, email: PUT /auth/v1/user) must show beyond an access token, so that a
// stolen token cannot become a permanent takeover: a session signed in within REAUTHENTICATION_WINDOW_S (a recovery
// link signs in too), or the current password (`current_password`), or the 6-digit nonce GET /reauthenticate emailed
// (`nonce`, Supabase Auth's secure password change). Also GET /reauthenticate itself.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/db.js';
import { requireSession, sendLink, type AuthContext } from './context.js';
import { AuthApiError } from './errors.js';
import { consumeCode } from './one-time-tokens.js';
import { verifyPassword } from './passwords.js';
import type { UserRow } from './users.js';

export const reauthenticationNeeded = (): AuthApiError => new AuthApiError(400, 'reauthentication_needed', 'Password update requires reauthentication');
const invalidNonce = (): AuthApiError => new AuthApiError(422, 'reauthentication_not_valid', 'Nonce has expired or is invalid');

export type Proof = { nonce?: string | undefined; currentPassword?: string | undefined };

/**
 * Checks what the caller shows, before anything changes. A wrong current password counts as a failed sign-in (the
 * same back-off), so a stolen token cannot guess it faster than the sign-in form can. Returns whether a nonce must be
 * consumed (inside the transaction that applies the change: `consumeNonce`).
 */
export async function checkProof(ctx: AuthContext, req: FastifyRequest, user: UserRow, sessionId: string, p: Proof): Promise<'fresh' | 'password' | 'nonce'> {
  if (p.currentPassword !== undefined) {
    const email = user.email ?? user.id;
    await ctx.limits.signIn.check(email, req.ip);
    if (!user.encrypted_password || !(await verifyPassword(p.currentPassword, user.encrypted_password))) {
      await ctx.limits.signIn.failed(email, req.ip);
      throw new AuthApiError(422, 'invalid_credentials', 'The current password is not right.');
    }
    await ctx.limits.signIn.succeeded(email, req.ip);
    return 'password';
  }
  if (p.nonce) return 'nonce';
  const r = await ctx.db.query<{ created_at: Date }>('SELECT created_at FROM looptale_auth.sessions WHERE id = $1', [sessionId]);
  const signedInAt = r.rows[0]?.created_at.getTime() ?? 0;
  if (ctx.now() - signedInAt <= ctx.config.REAUTHENTICATION_WINDOW_S * 1000) return 'fresh';
  throw reauthenticationNeeded();
}

/** Consumes the reauthentication nonce (single use; wrong guesses burn it as for email codes). */
export async function consumeNonce(ctx: AuthContext, q: Queryable, user: UserRow, nonce: string): Promise<AuthApiError | null> {
  const code = nonce.replace(/[\s-]/g, '');
  if (!user.email || !/^\d{6}$/.test(code)) return invalidNonce();
  const row = await consumeCode(q, user.email, code, ['reauthentication'], ctx.now());
  return row && row.user_id === user.id ? null : invalidNonce();
}

export function reauthenticationRoutes(app: FastifyInstance, ctx: AuthContext): void {
  // supabase-js reauthenticate(): emails a 6-digit nonce to the account's (confirmed) address.
  app.get('/reauthenticate', async (req) => {
    const { user } = await requireSession(ctx, req);
    if (!user.email) throw new AuthApiError(422, 'validation_failed', 'Reauthentication requires an email or a phone number');
    if (!user.email_confirmed_at) throw new AuthApiError(422, 'email_not_confirmed', 'Please verify your email first.');
    await ctx.limits.check('otp', req.ip, user.email);
    await ctx.limits.emailSend(user.email);
    await sendLink(ctx, user, 'reauthentication', user.email, ctx.baseUrl(), null);
    return {};
  });
}
