// The app's one API client (HTTP + socket), built from the browser's globals. Every screen reads server state through
// the query hooks (queries.ts) over `api`; the game screen opens its realtime link with realtime.ts's `openGameLink`. Same origin
// as the page: served by the game server, or by Vite's dev server, which proxies the server's routes.
import type { Clock } from '../../../engine/client/clock.js';
import { Api } from '../../../engine/client/api/http.js';

export const SERVER_URL = window.location.origin;

/** Real time in the browser: performance.now() and setTimeout. */
export const browserClock: Clock = {
  now: () => performance.now(),
  after(ms, fire) {
    const t = window.setTimeout(fire, ms);
    return { cancel: () => window.clearTimeout(t) };
  },
};

/** v4 UUIDs: crypto.randomUUID exists only in secure contexts (https, localhost), getRandomValues everywhere. */
export function newId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

let accessToken: string | null = null;

/** The auth session's access token, kept current by the session provider (supabase-js refreshes it). */
export function setAccessToken(token: string | null): void {
  accessToken = token;
}

export function getAccessToken(): string | null {
  return accessToken;
}

const refreshListeners = new Set<(token: string) => void>();

/** supabase-js refreshed the session's access token (TOKEN_REFRESHED): open game sockets hand it to the server. */
export function accessTokenRefreshed(token: string): void {
  accessToken = token;
  for (const l of refreshListeners) l(token);
}

/** Token refreshes, for the game screen's realtime link (realtime.ts). */
export const tokenRefreshes = {
  subscribe(listener: (token: string) => void): () => void {
    refreshListeners.add(listener);
    return () => refreshListeners.delete(listener);
  },
};

export const api = new Api(SERVER_URL, null, { fetch: (url, init) => window.fetch(url, init), getToken: getAccessToken });
