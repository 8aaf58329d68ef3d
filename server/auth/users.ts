// looptale_auth.users and looptale_auth.identities: lookups, creation, and the user JSON GoTrue returns (what supabase-js exposes as
// `User`). Emails are normalised to lower case once, here.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Queryable } from '../db/db.js';

export type UserRow = {
  id: string;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: Date | null;
  confirmation_sent_at: Date | null;
  recovery_sent_at: Date | null;
  email_change: string | null;
  email_change_sent_at: Date | null;
  role: string;
  raw_app_meta_data: Record<string, unknown>;
  raw_user_meta_data: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
  last_sign_in_at: Date | null;
  banned_until: Date | null;
};

export type IdentityRow = {
  id: string;
  user_id: string;
  provider: string;
  provider_id: string;
  identity_data: Record<string, unknown>;
  email: string | null;
  last_sign_in_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

const EmailSchema = z.email();

/** Lower-cased, trimmed email, or null when it is not an email address. */
export function normalizeEmail(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const e = raw.trim().toLowerCase();
  if (e.length > 254 || !EmailSchema.safeParse(e).success) return null;
  return e;
}

export function isBanned(u: Pick<UserRow, 'banned_until'>, now: number): boolean {
  return u.banned_until !== null && u.banned_until.getTime() > now;
}

export async function findUserByEmail(q: Queryable, email: string, lock = false): Promise<UserRow | null> {
  const r = await q.query<UserRow>(`SELECT * FROM looptale_auth.users WHERE lower(email) = $1${lock ? ' FOR UPDATE' : ''}`, [email]);
  return r.rows[0] ?? null;
}

export async function findUserById(q: Queryable, id: string, lock = false): Promise<UserRow | null> {
  const r = await q.query<UserRow>(`SELECT * FROM looptale_auth.users WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
  return r.rows[0] ?? null;
}

export async function identitiesOf(q: Queryable, userId: string): Promise<IdentityRow[]> {
  return (await q.query<IdentityRow>('SELECT * FROM looptale_auth.identities WHERE user_id = $1 ORDER BY created_at', [userId])).rows;
}

export type NewUser = {
  email: string;
  passwordHash: string | null;
  confirmed: boolean;
  provider: string;
  userMeta: Record<string, unknown>;
};

/** Creates a user. A concurrent sign-up of the same email loses on the unique index and gets null. */
export async function createUser(q: Queryable, u: NewUser, now: Date): Promise<UserRow | null> {
  const r = await q.query<UserRow>(
    `INSERT INTO looptale_auth.users (email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6)
     ON CONFLICT ((lower(email))) WHERE email IS NOT NULL DO NOTHING RETURNING *`,
    [u.email, u.passwordHash, u.confirmed ? now : null, JSON.stringify({ provider: u.provider, providers: [u.provider] }), JSON.stringify(u.userMeta), now],
  );
  return r.rows[0] ?? null;
}

/** The email identity GoTrue keeps for email users (provider_id = user id). */
export async function ensureEmailIdentity(q: Queryable, user: UserRow, now: Date): Promise<void> {
  if (!user.email) return;
  const data = { sub: user.id, email: user.email, email_verified: user.email_confirmed_at !== null, phone_verified: false };
  await q.query(
    `INSERT INTO looptale_auth.identities (user_id, provider, provider_id, identity_data, email, created_at, updated_at)
     VALUES ($1, 'email', $5, $2, $3, $4, $4)
     ON CONFLICT (provider, provider_id) DO UPDATE SET identity_data = EXCLUDED.identity_data, email = EXCLUDED.email, updated_at = EXCLUDED.updated_at`,
    [user.id, JSON.stringify(data), user.email, now, user.id],
  );
}

/** Adds a provider to app_metadata.providers (kept sorted and unique, as GoTrue does). */
export async function addProvider(q: Queryable, userId: string, provider: string): Promise<void> {
  await q.query(
    `UPDATE looptale_auth.users SET raw_app_meta_data = jsonb_set(raw_app_meta_data, '{providers}',
       (SELECT COALESCE(jsonb_agg(DISTINCT p ORDER BY p), '[]'::jsonb) FROM jsonb_array_elements_text(COALESCE(raw_app_meta_data->'providers', '[]'::jsonb) || to_jsonb($2::text)) AS p))
     WHERE id = $1`,
    [userId, provider],
  );
}

const iso = (d: Date | null): string | undefined => d?.toISOString();

/** GoTrue's user JSON (supabase-js `User`). */
export function userJson(u: UserRow, identities: IdentityRow[]): Record<string, unknown> {
  return {
    id: u.id,
    aud: 'authenticated',
    role: u.role,
    email: u.email ?? '',
    email_confirmed_at: iso(u.email_confirmed_at),
    phone: '',
    confirmation_sent_at: iso(u.confirmation_sent_at),
    confirmed_at: iso(u.email_confirmed_at),
    recovery_sent_at: iso(u.recovery_sent_at),
    new_email: u.email_change ?? undefined,
    email_change_sent_at: iso(u.email_change_sent_at),
    last_sign_in_at: iso(u.last_sign_in_at),
    app_metadata: u.raw_app_meta_data,
    user_metadata: u.raw_user_meta_data,
    identities: identities.map((i) => ({
      identity_id: i.id,
      id: i.provider_id,
      user_id: i.user_id,
      identity_data: i.identity_data,
      provider: i.provider,
      last_sign_in_at: iso(i.last_sign_in_at),
      created_at: iso(i.created_at),
      updated_at: iso(i.updated_at),
      email: i.email ?? undefined,
    })),
    created_at: iso(u.created_at),
    updated_at: iso(u.updated_at),
    banned_until: iso(u.banned_until),
    is_anonymous: false,
  };
}

/**
 * What GoTrue answers to a sign-up for an address that already has a confirmed account while confirmations are on:
 * a user-shaped object that reveals nothing (random id, no identities), so sign-up cannot probe for accounts. A new
 * account waiting for its confirmation gets the same shape (with its own id, as random to an observer).
 */
export function obfuscatedUserJson(email: string, userMeta: Record<string, unknown>, now: Date, id: string = randomUUID()): Record<string, unknown> {
  const t = now.toISOString();
  return {
    id, aud: 'authenticated', role: 'authenticated', email, phone: '', confirmation_sent_at: t,
    app_metadata: { provider: 'email', providers: ['email'] }, user_metadata: userMeta, identities: [], created_at: t,
    updated_at: t, is_anonymous: false,
  };
}
