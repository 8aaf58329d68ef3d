// Where auth redirects may go. A redirect_to outside the allowed origins (ALLOWED_ORIGINS and the server's own) falls
// back to the site URL, as GoTrue does with its allow list, so email links and OAuth cannot bounce sessions elsewhere.

/** `scheme://host[:port]` of a URL, also for custom schemes (a native wrapper's `looptale://`). */
function originOf(u: URL): string {
  return `${u.protocol}//${u.host}`.toLowerCase();
}

export function safeRedirect(raw: unknown, allowedOrigins: readonly string[], base: string): string {
  const site = `${base}/`;
  if (typeof raw !== 'string' || raw === '' || raw.length > 2048) return site;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return site;
  }
  if (u.protocol === 'javascript:' || u.protocol === 'data:' || u.username || u.password) return site;
  const allowed = new Set([base, ...allowedOrigins].map((o) => {
    try {
      return originOf(new URL(o));
    } catch {
      return o.toLowerCase();
    }
  }));
  if (!allowed.has(originOf(u))) return site;
  u.hash = '';
  return u.toString();
}

/** The URL with `params` as its fragment (implicit flow: tokens never reach a server's logs). */
export function withFragment(url: string, params: Record<string, string>): string {
  const u = new URL(url);
  u.hash = new URLSearchParams(params).toString();
  return u.toString();
}

/** The URL with `params` added to its query (PKCE flow: the one-time code). */
export function withQuery(url: string, params: Record<string, string>): string {
  const u = new URL(url);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.toString();
}

/** GoTrue's error redirect: error, error_code and error_description in the fragment (and the query for PKCE). */
export function errorRedirect(url: string, status: number, errorCode: string, description: string, pkce: boolean): string {
  const error = status === 403 ? 'access_denied' : status >= 500 ? 'server_error' : status === 401 ? 'unauthorized_client' : 'invalid_request';
  const params = { error, error_code: errorCode, error_description: description };
  const u = new URL(url);
  u.search = '';
  if (pkce) for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  u.hash = new URLSearchParams(params).toString();
  return u.toString();
}
