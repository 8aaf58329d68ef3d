// AUTH_PROVIDER=supabase: sign-in happens at a Supabase project; this server only accepts its access tokens, verified
// with SUPABASE_JWT_SECRET (HS256) or the project's JWKS (SUPABASE_JWKS_URL, asymmetric keys), audience
// 'authenticated'. Each user seen gets a row in auth.users (same id and email) so other tables can refer to it.
import type { FastifyInstance } from 'fastify';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import type { Config } from '../config.js';
import type { Db } from '../db/db.js';
import type { Logger } from '../log.js';
import { AuthApiError, errorBody } from './errors.js';
import type { VerifiedToken } from './service.js';
import { AUDIENCE } from './tokens.js';
import { isUuid } from './context.js';
import { normalizeEmail } from './users.js';

export function supabaseVerifier(config: Config, db: Db, log: Logger): (token: string) => Promise<VerifiedToken | null> {
  const secret = config.SUPABASE_JWT_SECRET ? new TextEncoder().encode(config.SUPABASE_JWT_SECRET) : null;
  const jwks = config.SUPABASE_JWKS_URL ? createRemoteJWKSet(new URL(config.SUPABASE_JWKS_URL)) : null;
  const known = new Map<string, string | null>();

  async function shadow(id: string, email: string | null): Promise<void> {
    if (known.get(id) === email) return;
    try {
      await db.query(
        `INSERT INTO auth.users (id, email, email_confirmed_at, raw_app_meta_data) VALUES ($1, $2, now(), '{"provider":"supabase","providers":["supabase"]}')
         ON CONFLICT (id) DO UPDATE SET email = EXCLUDED.email, updated_at = now() WHERE auth.users.email IS DISTINCT FROM EXCLUDED.email`,
        [id, email],
      );
    } catch (err) {
      // Another local row holds that email (an account deleted and recreated at Supabase): keep the id, drop the email.
      log.warn({ err: { message: (err as Error).message }, user: id }, 'auth: could not record the Supabase user with its email');
      await db.query(`INSERT INTO auth.users (id, email_confirmed_at) VALUES ($1, now()) ON CONFLICT (id) DO NOTHING`, [id]).catch(() => undefined);
    }
    if (known.size > 50_000) known.clear();
    known.set(id, email);
  }

  return async (token) => {
    let payload: JWTPayload;
    try {
      const { alg } = decodeProtectedHeader(token);
      if (alg === 'HS256') {
        if (!secret) return null;
        ({ payload } = await jwtVerify(token, secret, { algorithms: ['HS256'], audience: AUDIENCE, requiredClaims: ['sub', 'exp'] }));
      } else {
        if (!jwks) return null;
        ({ payload } = await jwtVerify(token, jwks, { algorithms: ['RS256', 'ES256', 'EdDSA'], audience: AUDIENCE, requiredClaims: ['sub', 'exp'] }));
      }
    } catch {
      return null;
    }
    if (!isUuid(payload.sub)) return null;
    const email = normalizeEmail(payload.email);
    const role = typeof payload.role === 'string' ? payload.role : 'authenticated';
    await shadow(payload.sub, email);
    return { user: { id: payload.sub, email, role }, sessionId: null, expiresAt: (payload.exp ?? 0) * 1000 };
  };
}

/** Every /auth/v1 route answers 404: accounts live at the Supabase project. */
export function supabaseAuthRoutes(app: FastifyInstance): void {
  const body = errorBody(new AuthApiError(404, 'not_found', 'Authentication is handled by Supabase on this server (AUTH_PROVIDER=supabase): sign in with your Supabase project and send its access token here.'));
  app.all('/auth/v1', (_req, reply) => reply.code(404).send(body));
  app.all('/auth/v1/*', (_req, reply) => reply.code(404).send(body));
}
