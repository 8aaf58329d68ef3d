// The auth calls a probe makes, as plain HTTP against /auth/v1 (what supabase-js sends), and the dev outbox to follow
// the links the server emails.
import { randomUUID } from 'node:crypto';

export const ANON = { apikey: 'anon-key', 'content-type': 'application/json' };

export type Answer = { status: number; body: Record<string, unknown>; headers: Headers; ms: number };

export async function call(url: string, method: string, path: string, body?: unknown, token?: string): Promise<Answer> {
  const t = performance.now();
  const res = await fetch(`${url}${path}`, {
    method, headers: { ...ANON, ...(token ? { authorization: `Bearer ${token}` } : {}) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: Record<string, unknown>;
  try {
    parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    parsed = { text };
  }
  return { status: res.status, body: parsed, headers: res.headers, ms: performance.now() - t };
}

export function uniqueEmail(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}@example.com`;
}

/** Sign-up with a password; the session's tokens when the server gave one. */
export async function signUp(url: string, email: string, password: string): Promise<{ answer: Answer; access?: string; refresh?: string }> {
  const answer = await call(url, 'POST', '/auth/v1/signup', { email, password });
  return { answer, access: answer.body.access_token as string | undefined, refresh: answer.body.refresh_token as string | undefined };
}

export async function signIn(url: string, email: string, password: string): Promise<string | null> {
  const a = await call(url, 'POST', '/auth/v1/token?grant_type=password', { email, password });
  return a.status === 200 ? (a.body.access_token as string) : null;
}

type Mail = { to: string; type: string; link: string; code: string };

export async function lastEmail(url: string, email: string, type: string): Promise<Mail | null> {
  const res = await fetch(`${url}/dev/outbox?email=${encodeURIComponent(email)}`);
  if (res.status !== 200) throw new Error(`the dev outbox answered ${res.status}`);
  return ((await res.json()) as Mail[]).filter((m) => m.type === type).at(-1) ?? null;
}

/** Asks for a magic link and follows it as a browser would: the access token in the redirect's fragment. */
export async function magicLink(url: string, email: string): Promise<string | null> {
  const sent = await call(url, 'POST', `/auth/v1/otp?redirect_to=${encodeURIComponent(`${url}/welcome`)}`, { email, create_user: true });
  if (sent.status !== 200) return null;
  const mail = await lastEmail(url, email, 'magiclink');
  if (!mail) return null;
  const res = await fetch(mail.link, { redirect: 'manual' });
  const location = res.headers.get('location') ?? '';
  return new URLSearchParams(location.split('#')[1] ?? '').get('access_token');
}

/** GET /auth/v1/user: the email the token's account has now, or null when the token no longer works. */
export async function currentEmail(url: string, token: string): Promise<string | null> {
  const a = await call(url, 'GET', '/auth/v1/user', undefined, token);
  return a.status === 200 ? (a.body.email as string) : null;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
