// Which Host headers the server answers. A page on evil.example whose name an attacker re-binds to 127.0.0.1 (DNS
// rebinding) reaches this server as a loopback peer, but its requests still say `Host: evil.example`: refusing hosts
// not configured keeps loopback-only routes (/metrics, /dev/outbox) and everything else out of its reach. Hosts are
// compared by name, without the port (a proxy may publish another port than the one the server listens on).
import type { Config } from '../config.js';

/** Names every server answers: this machine's loopback. */
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

/** The name of a Host header or URL host (lower case, port dropped; IPv6 keeps its brackets); '' when malformed. */
export function hostName(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    return end > 0 && (end === h.length - 1 || /^:\d+$/.test(h.slice(end + 1))) ? h.slice(0, end + 1) : '';
  }
  const m = /^([a-z0-9.-]+)(:\d+)?$/.exec(h);
  return m?.[1]?.replace(/\.$/, '') ?? '';
}

function urlHost(url: string): string {
  try {
    return hostName(new URL(url).host);
  } catch {
    return '';
  }
}

export type HostCheck = (host: string | undefined) => boolean;

/**
 * The hosts the server answers: loopback names, PUBLIC_URL's, ALLOWED_ORIGINS' and ALLOWED_HOSTS' (`*` there: any
 * host, for a deployment whose proxy checks it), plus HOST when the server listens on one named address.
 */
export function hostCheck(c: Config): HostCheck {
  if (c.ALLOWED_HOSTS.includes('*')) return () => true;
  const names = new Set(LOOPBACK);
  if (c.PUBLIC_URL) names.add(urlHost(c.PUBLIC_URL));
  for (const o of c.ALLOWED_ORIGINS) names.add(urlHost(o));
  for (const h of c.ALLOWED_HOSTS) names.add(hostName(h));
  if (!['0.0.0.0', '::', '[::]'].includes(c.HOST)) names.add(hostName(c.HOST.includes(':') && !c.HOST.startsWith('[') ? `[${c.HOST}]` : c.HOST));
  names.delete('');
  return (host) => host !== undefined && names.has(hostName(host));
}

export const MISDIRECTED_MESSAGE = 'This server does not answer for that host name: set ALLOWED_HOSTS (or PUBLIC_URL) to the names it is reached by.';

/** Paths answered whatever the Host: load balancers and orchestrators probe health by address. */
export function isProbePath(path: string): boolean {
  return path === '/healthz' || path === '/readyz';
}
