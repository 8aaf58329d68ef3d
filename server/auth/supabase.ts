// AUTH_PROVIDER=supabase: sign-in happens at a Supabase project; this server only accepts its access tokens, verified
// with SUPABASE_JWT_SECRET (HS256) or the project's JWKS (SUPABASE_JWKS_URL, asymmetric keys), audience
// 'authenticated'. It writes nothing anywhere for them: Supabase Auth's `auth` tables are Supabase's, and player rows
// carry the token's `sub` as user_id (what Row Level Security compares with).
import type { FastifyInstance } from 'fastify';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import type { Config } from '../config.js';
import { AuthApiError, errorBody } from './errors.js';
import type { VerifiedToken } from './service.js';
import { AUDIENCE } from './tokens.js';
import { isUuid } from './context.js';
import { normalizeEmail } from './users.js';

export function supabaseVerifier(config: Config): (token: string) => Promise<VerifiedToken | null> {
  const secret = config.SUPABASE_JWT_SECRET ? new TextEncoder().encode(config.SUPABASE_JWT_SECRET) : null;
  const jwks = config.SUPABASE_JWKS_URL ? createRemoteJWKSet(new URL(config.SUPABASE_JWKS_URL)) : null;

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
    return { user: { id: payload.sub, email, role }, sessionId: null, expiresAt: (payload.exp ?? 0) * 1000 };
  };
}

/** Every /auth/v1 route answers 404: accounts live at the Supabase project. */
export function supabaseAuthRoutes(app: FastifyInstance): void {
  const body = errorBody(new AuthApiError(404, 'not_found', 'Authentication is handled by Supabase on this server (AUTH_PROVIDER=supabase): sign in with your Supabase project and send its access token here.'));
  app.all('/auth/v1', (_req, reply) => reply.code(404).send(body));
  app.all('/auth/v1/*', (_req, reply) => reply.code(404).send(body));
}
