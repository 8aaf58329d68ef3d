// Secrets and access tokens. Opaque secrets (refresh tokens, email links, auth codes, OAuth state) are random and
// stored only as SHA-256 digests. Access tokens are HS256 JWTs with the claims supabase-js reads.
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT, type JWTPayload } from 'jose';

export const AUDIENCE = 'authenticated';

export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** A 6-digit email code. */
export function randomCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export type AmrEntry = { method: string; timestamp: number };

export type AccessClaims = {
  sub: string;
  email: string;
  role: string;
  session_id: string;
  aal: string;
  amr: AmrEntry[];
  app_metadata: Record<string, unknown>;
  user_metadata: Record<string, unknown>;
};

export async function signAccessToken(secret: Uint8Array, claims: AccessClaims, issuer: string, ttlS: number, nowS: number): Promise<string> {
  return new SignJWT({ ...claims, phone: '', is_anonymous: false })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(issuer)
    .setAudience(AUDIENCE)
    .setIssuedAt(nowS)
    .setExpirationTime(nowS + ttlS)
    .sign(secret);
}

export type TokenCheck =
  | { ok: true; payload: JWTPayload & { session_id?: unknown; email?: unknown; role?: unknown } }
  | { ok: false; reason: 'expired' | 'invalid' };

/** Checks signature, expiry and audience of one of our access tokens. */
export async function verifyAccessToken(secret: Uint8Array, token: string): Promise<TokenCheck> {
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'], audience: AUDIENCE, requiredClaims: ['sub', 'exp'] });
    return { ok: true, payload };
  } catch (e) {
    return { ok: false, reason: e instanceof joseErrors.JWTExpired ? 'expired' : 'invalid' };
  }
}

/** RFC 7636: BASE64URL(SHA256(verifier)) for 's256', the verifier itself for 'plain'. */
export function pkceMatches(verifier: string, challenge: string, method: string): boolean {
  const derived = method === 'plain' ? verifier : createHash('sha256').update(verifier).digest('base64url');
  return safeEqual(derived, challenge);
}
