// Development origins in production: a page on http://localhost:5173 (any program on the player's machine can serve
// one) gets CORS grants, and auth redirects may send tokens to it.
import { ANON } from './auth-client.js';
import { tally, type Probe } from './types.js';

const DEV_ORIGINS = ['http://localhost:5173', 'http://127.0.0.1:5173'];

export const originsProbe: Probe = {
  group: 'origins',
  items: [9],
  async run({ target }) {
    const cors: boolean[] = [];
    const redirects: boolean[] = [];
    for (const origin of DEV_ORIGINS) {
      for (const [method, path] of [['GET', '/auth/v1/settings'], ['GET', '/api/stories'], ['OPTIONS', '/auth/v1/token?grant_type=password'], ['OPTIONS', '/api/me']] as const) {
        const headers: Record<string, string> = { origin, ...(method === 'OPTIONS' ? { 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' } : {}) };
        const res = await fetch(`${target.url}${path}`, { method, headers });
        await res.arrayBuffer();
        const grant = res.headers.get('access-control-allow-origin');
        cors.push(grant === origin || grant === '*');
      }
      const verify = await fetch(`${target.url}/auth/v1/verify?token=nope&type=magiclink&redirect_to=${encodeURIComponent(`${origin}/welcome`)}`, { redirect: 'manual' });
      redirects.push((verify.headers.get('location') ?? '').startsWith(origin));
      // A magic link asked for with the dev origin as its redirect: where the emailed link sends the token.
      const email = `origin-${Date.now()}-${redirects.length}@example.com`;
      await fetch(`${target.url}/auth/v1/otp?redirect_to=${encodeURIComponent(`${origin}/welcome`)}`, { method: 'POST', headers: ANON, body: JSON.stringify({ email, create_user: true }) });
      const mails = (await (await fetch(`${target.url}/dev/outbox?email=${encodeURIComponent(email)}`)).json()) as { link: string }[];
      const link = mails.at(-1)?.link;
      if (link) {
        const res = await fetch(link, { redirect: 'manual' });
        redirects.push((res.headers.get('location') ?? '').startsWith(origin));
      }
    }
    return [
      tally(9, 'CORS grant to a dev origin (localhost:5173, 127.0.0.1:5173; 4 routes)', cors),
      tally(9, 'auth redirect (verify, magic link) to a dev origin', redirects),
    ];
  },
};
