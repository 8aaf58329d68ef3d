// Email links and codes: one live token per user and type, single use, valid an hour. The link carries a random
// secret (also accepted as `token_hash` by POST /verify); the 6-digit code is checked with the email and burnt after
// a few wrong guesses. Only digests are stored.
import type { Queryable } from '../db/db.js';
import { randomCode, randomSecret, safeEqual, sha256 } from './tokens.js';

export type OttType = 'signup' | 'invite' | 'magiclink' | 'recovery' | 'email_change' | 'reauthentication';
/** The types POST /verify and GET /verify accept (a reauthentication code only authorises a change of the account). */
export const OTT_TYPES: readonly OttType[] = ['signup', 'invite', 'magiclink', 'recovery', 'email_change'];
export const OTT_TTL_MS = 60 * 60 * 1000;
export const MAX_CODE_FAILURES = 5;

export type OttRow = {
  id: string;
  user_id: string;
  token_type: OttType;
  link_hash: string;
  otp_hash: string;
  relates_to: string;
  redirect_to: string | null;
  code_challenge: string | null;
  code_challenge_method: string | null;
  failed_attempts: number;
  expires_at: Date;
};

export type Pkce = { challenge: string; method: 's256' | 'plain' };

const SENT_AT_COLUMN: Record<OttType, string | null> = {
  signup: 'confirmation_sent_at',
  invite: 'confirmation_sent_at',
  magiclink: 'recovery_sent_at',
  recovery: 'recovery_sent_at',
  email_change: 'email_change_sent_at',
  reauthentication: null,
};

const otpDigest = (email: string, code: string): string => sha256(`${email}:${code}`);

/** Issues a token (replacing the user's previous one of that type). Returns the link secret and the code. */
export async function issueOneTimeToken(
  q: Queryable,
  t: { userId: string; type: OttType; email: string; redirectTo: string; pkce: Pkce | null },
  now: number,
): Promise<{ secret: string; code: string }> {
  const secret = randomSecret();
  const code = randomCode();
  await q.query(
    `INSERT INTO looptale_auth.one_time_tokens (user_id, token_type, link_hash, otp_hash, relates_to, redirect_to, code_challenge, code_challenge_method, failed_attempts, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 0, $9, $10)
     ON CONFLICT (user_id, token_type) DO UPDATE SET link_hash = EXCLUDED.link_hash, otp_hash = EXCLUDED.otp_hash,
       relates_to = EXCLUDED.relates_to, redirect_to = EXCLUDED.redirect_to, code_challenge = EXCLUDED.code_challenge,
       code_challenge_method = EXCLUDED.code_challenge_method, failed_attempts = 0, created_at = EXCLUDED.created_at,
       expires_at = EXCLUDED.expires_at`,
    [t.userId, t.type, sha256(secret), otpDigest(t.email, code), t.email, t.redirectTo, t.pkce?.challenge ?? null, t.pkce?.method ?? null, new Date(now), new Date(now + OTT_TTL_MS)],
  );
  const column = SENT_AT_COLUMN[t.type];
  if (column) await q.query(`UPDATE looptale_auth.users SET ${column} = $2 WHERE id = $1`, [t.userId, new Date(now)]);
  return { secret, code };
}

const placeholders = (from: number, n: number): string => Array.from({ length: n }, (_, i) => `$${from + i}`).join(', ');

/** Consumes the token of an email link (or a token_hash), when it is of one of `types` and not expired. */
export async function consumeLinkToken(q: Queryable, secret: string, types: readonly OttType[], now: number): Promise<OttRow | null> {
  const r = await q.query<OttRow>(
    `DELETE FROM looptale_auth.one_time_tokens WHERE link_hash = $1 AND token_type IN (${placeholders(2, types.length)}) RETURNING *`,
    [sha256(secret), ...types],
  );
  const row = r.rows[0];
  return row && row.expires_at.getTime() > now ? row : null;
}

/**
 * Consumes the live token sent to `email` whose code matches. A wrong code counts against every live token of that
 * address; after MAX_CODE_FAILURES they are deleted (so 6 digits cannot be walked through).
 */
export async function consumeCode(q: Queryable, email: string, code: string, types: readonly OttType[], now: number): Promise<OttRow | null> {
  const r = await q.query<OttRow>(
    `SELECT * FROM looptale_auth.one_time_tokens WHERE relates_to = $1 AND token_type IN (${placeholders(2, types.length)}) AND expires_at > $${types.length + 2} FOR UPDATE`,
    [email, ...types, new Date(now)],
  );
  const digest = otpDigest(email, code);
  const hit = r.rows.find((row) => safeEqual(row.otp_hash, digest));
  if (hit) {
    await q.query('DELETE FROM looptale_auth.one_time_tokens WHERE id = $1', [hit.id]);
    return hit;
  }
  if (r.rows.length) {
    const ids = r.rows.map((row) => row.id);
    await q.query(`UPDATE looptale_auth.one_time_tokens SET failed_attempts = failed_attempts + 1 WHERE id IN (${placeholders(1, ids.length)})`, ids);
    await q.query(`DELETE FROM looptale_auth.one_time_tokens WHERE failed_attempts >= ${MAX_CODE_FAILURES} AND id IN (${placeholders(1, ids.length)})`, ids);
  }
  return null;
}

/** PKCE: an auth code for the client's redirect (valid five minutes, single use). */
export async function issueAuthCode(q: Queryable, userId: string, pkce: Pkce, authenticationMethod: string, now: number): Promise<string> {
  const code = randomSecret();
  await q.query(
    `INSERT INTO looptale_auth.flow_state (user_id, auth_code_hash, code_challenge, code_challenge_method, authentication_method, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [userId, sha256(code), pkce.challenge, pkce.method, authenticationMethod, new Date(now), new Date(now + 5 * 60_000)],
  );
  return code;
}

export type FlowStateRow = { user_id: string; code_challenge: string; code_challenge_method: string; authentication_method: string; expires_at: Date };

export async function consumeAuthCode(q: Queryable, code: string): Promise<FlowStateRow | null> {
  const r = await q.query<FlowStateRow>('DELETE FROM looptale_auth.flow_state WHERE auth_code_hash = $1 RETURNING user_id, code_challenge, code_challenge_method, authentication_method, expires_at', [sha256(code)]);
  return r.rows[0] ?? null;
}

/** Reads code_challenge / code_challenge_method from a request; null when absent. */
export function readPkce(challenge: unknown, method: unknown): Pkce | null | 'invalid' {
  if (challenge === undefined || challenge === null || challenge === '') return null;
  if (typeof challenge !== 'string' || !/^[A-Za-z0-9._~-]{43,128}$/.test(challenge)) return 'invalid';
  const m = typeof method === 'string' ? method.toLowerCase() : '';
  if (m !== 's256' && m !== 'plain') return 'invalid';
  return { challenge, method: m };
}
