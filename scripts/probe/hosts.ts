// DNS rebinding: a page on evil.example whose name now points at 127.0.0.1 reads /metrics and /dev/outbox from the
// player's own machine, or opens the game socket, unless the server refuses Host names it was not configured for.
import { signUp, uniqueEmail } from './auth-client.js';
import { raw } from './target.js';
import { tally, type Probe } from './types.js';

const HOSTS = ['evil.example', 'evil.example:8787', 'localhost.evil.example', '127.0.0.1.evil.example'];
const PATHS = ['/metrics', '/dev/outbox?email=a@example.com', '/api/stories'];
const UPGRADE = { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' };

export const hostsProbe: Probe = {
  group: 'hosts',
  items: [11],
  async run({ target }) {
    const { access } = await signUp(target.url, uniqueEmail('hosts'), 'a long enough password 1');
    const http: boolean[] = [];
    const ws: boolean[] = [];
    for (const host of HOSTS) {
      for (const path of PATHS) http.push((await raw(target.url, path, { host })).status === 200);
      const up = await raw(target.url, `/ws?token=${access ?? ''}`, { host, ...UPGRADE });
      ws.push(up.upgraded);
    }
    // The same from a configured name, to show the probe can tell: it must be let in.
    const own = await raw(target.url, '/metrics', { host: new URL(target.url).host });
    if (own.status !== 200) throw new Error(`/metrics answered ${own.status} to the server's own Host`);
    return [
      tally(11, `forged Host answered (${PATHS.length} routes x ${HOSTS.length} hosts)`, http),
      tally(11, `forged Host opens the game socket (${HOSTS.length} hosts)`, ws),
    ];
  },
};
