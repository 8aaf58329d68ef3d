// The Content-Security-Policy of the web app's pages. Scripts come from the page's own origin only; the app connects
// (fetch, the /ws socket) and loads pictures and sounds only from the origins this configuration uses: itself,
// PUBLIC_URL, the Supabase project when it signs players in or stores media, and MEDIA_ORIGINS (story files that
// name images elsewhere). Anything else an injected page part tries to reach or leak to is blocked.
import type { Config } from '../config.js';

function origin(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const o = new URL(url).origin;
    return o === 'null' ? null : o;
  } catch {
    return null;
  }
}

/** The socket origin of an HTTP origin (http -> ws, https -> wss). */
function socketOrigin(httpOrigin: string): string {
  return httpOrigin.replace(/^http/, 'ws');
}

/** Origins (besides 'self') the pages may connect to, and load images and sounds from. */
export function cspOrigins(c: Config): { connect: string[]; media: string[] } {
  const pub = origin(c.PUBLIC_URL);
  const supabaseAuth = c.AUTH_PROVIDER === 'supabase' ? [origin(c.SUPABASE_URL), origin(c.SUPABASE_JWKS_URL)] : [];
  const supabaseMedia = c.MEDIA_STORE === 'supabase' ? [origin(c.SUPABASE_URL)] : [];
  const media = [pub, ...supabaseMedia, ...c.MEDIA_ORIGINS.map(origin)];
  const connect = [pub, pub && socketOrigin(pub), ...supabaseAuth, ...media];
  const unique = (xs: (string | null)[]): string[] => [...new Set(xs.filter((x): x is string => x !== null))];
  return { connect: unique(connect), media: unique(media) };
}

/**
 * The policy for a page requested with `host` (already checked against the configured hosts, server/http/
 * host-check.ts): its socket is ws: or wss: on that host (browsers before CSP 3 do not count them as 'self').
 */
export function contentSecurityPolicy(c: Config, host: string | undefined): string {
  const { connect, media } = cspOrigins(c);
  const self = host && /^[a-z0-9.:[\]-]+$/i.test(host) ? [`ws://${host}`, `wss://${host}`] : [];
  const list = (xs: string[]): string => ['\'self\'', ...xs].join(' ');
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    // data: and blob: are the app's own pictures (card glyphs, an upload's preview, recorded audio).
    `img-src ${list([...media, 'data:', 'blob:'])}`,
    `media-src ${list([...media, 'data:', 'blob:'])}`,
    "font-src 'self' data:",
    `connect-src ${list([...self, ...connect])}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    // No other site may frame a page (clickjacking a signed-in player); the native wrapper loads the app top-level.
    "frame-ancestors 'none'",
  ].join('; ');
}
