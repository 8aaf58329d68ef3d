// Headers that keep answers from being sniffed, cached or downgraded, and a CSP that lets pages talk only to the
// origins in use.
import { ANON, uniqueEmail } from './auth-client.js';
import { tally, type Probe } from './types.js';

const JSON_ROUTES = ['/api/stories', '/auth/v1/settings', '/healthz', '/api/me', '/auth/v1/user', '/api/no-such-route'];

export const headersProbe: Probe = {
  group: 'headers',
  items: [10],
  async run({ target }) {
    const sniff: (boolean | null)[] = [];
    for (const path of JSON_ROUTES) {
      const res = await fetch(`${target.url}${path}`, { headers: ANON });
      await res.arrayBuffer();
      sniff.push((res.headers.get('content-type') ?? '').includes('json') ? res.headers.get('x-content-type-options') !== 'nosniff' : null);
    }

    // Every answer carrying a token, and the token route's refusals: never stored by a cache.
    const email = uniqueEmail('headers');
    const password = 'a long enough password 1';
    const up = await fetch(`${target.url}/auth/v1/signup`, { method: 'POST', headers: ANON, body: JSON.stringify({ email, password }) });
    const upBody = (await up.json()) as { refresh_token?: string };
    const token = await fetch(`${target.url}/auth/v1/token?grant_type=password`, { method: 'POST', headers: ANON, body: JSON.stringify({ email, password }) });
    await token.arrayBuffer();
    const refresh = await fetch(`${target.url}/auth/v1/token?grant_type=refresh_token`, { method: 'POST', headers: ANON, body: JSON.stringify({ refresh_token: upBody.refresh_token }) });
    await refresh.arrayBuffer();
    const wrong = await fetch(`${target.url}/auth/v1/token?grant_type=password`, { method: 'POST', headers: ANON, body: JSON.stringify({ email, password: 'not the password' }) });
    await wrong.arrayBuffer();
    const cached = [up, token, refresh, wrong].map((r) => !(r.headers.get('cache-control') ?? '').includes('no-store'));

    // HTTPS as a proxy reports it (the probe server trusts X-Forwarded-Proto).
    const hsts: boolean[] = [];
    for (const path of ['/healthz', '/api/stories', '/']) {
      const res = await fetch(`${target.url}${path}`, { headers: { 'x-forwarded-proto': 'https' } });
      await res.arrayBuffer();
      hsts.push(!res.headers.get('strict-transport-security'));
    }

    // connect-src and img-src: no scheme-wide source (http:, https:, ws:, wss:, *).
    const page = await fetch(`${target.url}/my-profile`);
    await page.arrayBuffer();
    const csp = new Map((page.headers.get('content-security-policy') ?? '').split(';').map((d) => d.trim().split(/\s+/)).map(([n = '', ...s]) => [n, s]));
    const wide = ['connect-src', 'img-src', 'media-src'].map((d) => (csp.get(d) ?? csp.get('default-src') ?? ['*']).some((s) => ['http:', 'https:', 'ws:', 'wss:', '*'].includes(s)));
    return [
      tally(10, `JSON answer without nosniff (${JSON_ROUTES.length} routes)`, sniff),
      tally(10, 'token answer a cache may keep (sign-up, password, refresh, refused sign-in)', cached),
      tally(10, 'no HSTS over HTTPS (3 routes)', hsts),
      tally(10, 'CSP lets connect-src, img-src or media-src reach any origin', wide),
    ];
  },
};
