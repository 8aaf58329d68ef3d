// Helpers for tests that sign in against the real server with the unmodified supabase-js client.
import { createClient } from '@supabase/supabase-js';
import { expect } from 'vitest';
import type { Queryable } from '../../server/db/db.js';

export const ANON_KEY = 'anon-key';
export const APP_URL = 'http://localhost:5173/welcome';

/** supabase-js exactly as an app creates it, minus storage and timers. */
export function supabaseClient(url: string, flowType: 'implicit' | 'pkce' = 'implicit') {
  return createClient(url, ANON_KEY, { auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false, flowType } });
}

let n = 0;
/** A fresh email address per call. */
export function uniqueEmail(prefix = 'player'): string {
  n += 1;
  return `${prefix}-${Date.now().toString(36)}-${n}@example.com`;
}

export type OutboxMessage = { to: string; type: string; subject: string; text: string; link: string; token_hash: string; code: string; sent_at: string };

/** The dev outbox's messages for `email` (newest last). */
export async function outbox(url: string, email: string): Promise<OutboxMessage[]> {
  const res = await fetch(`${url}/dev/outbox?email=${encodeURIComponent(email)}`);
  expect(res.status, 'the dev outbox is off: start the test server with { DEV_OUTBOX: \'true\' }').toBe(200);
  return (await res.json()) as OutboxMessage[];
}

export async function lastEmail(url: string, email: string, type?: string): Promise<OutboxMessage> {
  const all = (await outbox(url, email)).filter((m) => !type || m.type === type);
  const m = all.at(-1);
  if (!m) throw new Error(`no ${type ?? ''} email for ${email} in the dev outbox`);
  return m;
}

/** Follows a link like a browser would, without following its redirect: the status and the Location. */
export async function follow(link: string): Promise<{ status: number; location: string }> {
  const res = await fetch(link, { redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location') ?? '' };
}

/** The parameters in a URL's fragment. */
export function fragment(location: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(new URL(location).hash.slice(1)));
}

/** The claims of a JWT (unverified). */
export function claimsOf(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** GET /auth/v1/user with a bearer token: the status and body. */
export async function getUserRaw(url: string, accessToken: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${url}/auth/v1/user`, { headers: { authorization: `Bearer ${accessToken}`, apikey: ANON_KEY } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/**
 * Moves the rotation time of every rotated refresh token `seconds` into the past: what the reuse check reads, so a test
 * sees "later than the reuse interval" without waiting for it.
 */
export async function ageRotatedRefreshTokens(db: Queryable, seconds: number): Promise<void> {
  await db.query(`UPDATE looptale_auth.refresh_tokens SET updated_at = updated_at - make_interval(secs => $1) WHERE revoked`, [seconds]);
}
