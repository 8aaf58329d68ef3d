import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { errorRedirect, safeRedirect, withFragment } from './redirects.js';

const BASE = 'http://localhost:8787';
const ALLOWED = ['http://localhost:5173', 'looptale://auth'];

describe('redirects', () => {
  it('keeps allowed origins (also custom schemes) and falls back to the site URL otherwise', () => {
    expect(safeRedirect('http://localhost:5173/welcome?x=1#old', ALLOWED, BASE)).toBe('http://localhost:5173/welcome?x=1');
    expect(safeRedirect('looptale://auth/callback', ALLOWED, BASE)).toBe('looptale://auth/callback');
    expect(safeRedirect(`${BASE}/browse`, ALLOWED, BASE)).toBe(`${BASE}/browse`);
    for (const bad of ['https://evil.example/', 'http://localhost:5173.evil.example/', 'javascript:alert(1)', '//evil.example', '/relative', 'http://user:pw@localhost:5173/', undefined, 42]) {
      expect(safeRedirect(bad, ALLOWED, BASE)).toBe(`${BASE}/`);
    }
  });

  it('never lets a URL through to an origin that is not allowed (property)', () => {
    fc.assert(fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), (u) => {
      const out = new URL(safeRedirect(u, ALLOWED, BASE));
      expect(['http://localhost:5173', BASE]).toContain(out.origin);
    }));
  });

  it('puts sessions in the fragment and errors in GoTrue’s fields', () => {
    expect(withFragment('http://localhost:5173/w?x=1', { access_token: 'a', type: 'magiclink' })).toBe('http://localhost:5173/w?x=1#access_token=a&type=magiclink');
    const e = new URL(errorRedirect('http://localhost:5173/w?x=1', 403, 'otp_expired', 'Email link is invalid or has expired', false));
    expect(e.search).toBe('');
    expect(Object.fromEntries(new URLSearchParams(e.hash.slice(1)))).toEqual({ error: 'access_denied', error_code: 'otp_expired', error_description: 'Email link is invalid or has expired' });
    expect(new URL(errorRedirect('http://localhost:5173/w', 400, 'x', 'y', true)).searchParams.get('error_code')).toBe('x');
  });
});
