// Clickjacking: another site frames a page of the app (a signed-in /my-profile) unless every HTML page forbids it
// with CSP frame-ancestors or X-Frame-Options.
import { tally, type Probe } from './types.js';

/** The app's pages (web/src/app/router.tsx), the bundle's index and the API docs. */
export const PAGES = ['/', '/browse', '/login', '/signup', '/my-profile', '/settings', '/share-feedback', '/admin', '/admin/feedback',
  '/launch/8b800bd3-b107-4b49-81d1-b7a4b8dcbc5a', '/game/00000000-0000-4000-8000-000000000000', '/index.html', '/no-such-page', '/docs', '/my-profile?invite_token=x'];

export const framingProbe: Probe = {
  group: 'framing',
  items: [4],
  async run({ target }) {
    const outcomes: (boolean | null)[] = [];
    for (const path of PAGES) {
      const res = await fetch(`${target.url}${path}`);
      await res.arrayBuffer();
      if (!(res.headers.get('content-type') ?? '').startsWith('text/html')) {
        outcomes.push(null);
        continue;
      }
      const csp = res.headers.get('content-security-policy') ?? '';
      const xfo = (res.headers.get('x-frame-options') ?? '').toUpperCase();
      outcomes.push(!/frame-ancestors\s+'none'/.test(csp) && xfo !== 'DENY' && xfo !== 'SAMEORIGIN');
    }
    return [tally(4, `an HTML page another site may frame (${PAGES.length} pages)`, outcomes)];
  },
};
