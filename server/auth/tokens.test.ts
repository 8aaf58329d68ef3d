import { describe, expect, it } from 'vitest';
import { readPkce } from './one-time-tokens.js';
import { pkceMatches, randomCode, signAccessToken, verifyAccessToken } from './tokens.js';

const secret = new TextEncoder().encode('a-test-secret-that-is-long-enough-for-hs256');
const claims = { sub: '6f1c1f7e-4a52-4a43-9a3e-9d2f3c1e2b10', email: 'a@b.c', role: 'authenticated', session_id: '0e7c4c1b-1f0a-4f0e-8a0b-1b2c3d4e5f60', aal: 'aal1', amr: [], app_metadata: {}, user_metadata: {} };

describe('tokens', () => {
  it('PKCE S256 matches the RFC 7636 appendix B example', () => {
    expect(pkceMatches('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', 's256')).toBe(true);
    expect(pkceMatches('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXj', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', 's256')).toBe(false);
    expect(pkceMatches('plain-verifier', 'plain-verifier', 'plain')).toBe(true);
  });

  it('reads code_challenge / code_challenge_method', () => {
    expect(readPkce(undefined, undefined)).toBeNull();
    expect(readPkce('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', 'S256')).toEqual({ challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', method: 's256' });
    expect(readPkce('short', 's256')).toBe('invalid');
    expect(readPkce('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', 'md5')).toBe('invalid');
  });

  it('access tokens verify until they expire, and only with their secret', async () => {
    const now = Math.floor(Date.now() / 1000);
    const t = await signAccessToken(secret, claims, 'http://localhost/auth/v1', 3600, now);
    const ok = await verifyAccessToken(secret, t);
    expect(ok.ok && ok.payload).toMatchObject({ sub: claims.sub, aud: 'authenticated', exp: now + 3600, iat: now, session_id: claims.session_id, phone: '', is_anonymous: false });
    expect(await verifyAccessToken(new TextEncoder().encode('another-secret-that-is-long-enough-too'), t)).toEqual({ ok: false, reason: 'invalid' });
    const old = await signAccessToken(secret, claims, 'http://localhost/auth/v1', 60, now - 120);
    expect(await verifyAccessToken(secret, old)).toEqual({ ok: false, reason: 'expired' });
  });

  it('email codes are six digits', () => {
    for (let i = 0; i < 50; i++) expect(randomCode()).toMatch(/^\d{6}$/);
  });
});
