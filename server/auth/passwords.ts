// Password hashing: argon2id (@node-rs/argon2, a maintained native binding, run off the event loop) at OWASP's
// parameters, stored as the standard PHC string `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>` that other tools
// (Supabase Auth's import of hashes among them) read. Hashes written by earlier versions (`scrypt$logN$r$p$salt$key`)
// are still verified; a sign-in with one, or with an argon2id hash of lower cost, stores a fresh hash (`needsRehash`).
import { scrypt, timingSafeEqual } from 'node:crypto';
import { hash as argon2Hash, verify as argon2Verify, type Algorithm } from '@node-rs/argon2';
import { isCommonPassword } from './common-passwords.js';

export type Argon2Params = { memoryKiB: number; passes: number; lanes: number };

/**
 * OWASP Password Storage Cheat Sheet, argon2id: "a minimum configuration of 19 MiB of memory, an iteration count of 2,
 * and 1 degree of parallelism". About 15 ms per hash here (the scrypt it replaces took ~250 ms under the same load).
 */
export const ARGON2_PARAMS: Argon2Params = { memoryKiB: 19_456, passes: 2, lanes: 1 };
/** `Algorithm.Argon2id` (an ambient const enum, which isolatedModules cannot read). */
const ARGON2ID = 2 as Algorithm;

export const MIN_PASSWORD_LENGTH = 8;
/** Caps the work an attacker can ask for with a huge password. */
export const MAX_PASSWORD_LENGTH = 1024;

/** Unicode forms alike (NIST SP 800-63B): "café" typed composed or decomposed is one password. */
function normalize(password: string): string {
  return password.normalize('NFKC');
}

export async function hashPassword(password: string, params: Argon2Params = ARGON2_PARAMS): Promise<string> {
  return argon2Hash(normalize(password), { algorithm: ARGON2ID, memoryCost: params.memoryKiB, timeCost: params.passes, parallelism: params.lanes, outputLen: 32 });
}

const ARGON2ID_PHC = /^\$argon2id\$v=19\$m=(\d{1,7}),t=(\d{1,3}),p=(\d{1,2})\$[A-Za-z0-9+/]{11,}\$[A-Za-z0-9+/]{16,}$/;

function argon2Params(stored: string): Argon2Params | null {
  const m = ARGON2ID_PHC.exec(stored);
  if (!m) return null;
  const p = { memoryKiB: Number(m[1]), passes: Number(m[2]), lanes: Number(m[3]) };
  // Refuse costs nobody writes, so a tampered row cannot make a sign-in allocate gigabytes.
  if (p.memoryKiB < 8 * p.lanes || p.memoryKiB > 1_048_576 || p.passes < 1 || p.passes > 20 || p.lanes < 1) return null;
  return p;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (stored.startsWith('$argon2id$')) {
    if (!argon2Params(stored)) return false;
    try {
      return await argon2Verify(stored, normalize(password));
    } catch {
      return false;
    }
  }
  return verifyScrypt(password, stored);
}

/** True when `stored` is not an argon2id hash at today's cost or more: the caller rehashes at the next sign-in. */
export function needsRehash(stored: string, params: Argon2Params = ARGON2_PARAMS): boolean {
  const p = argon2Params(stored);
  return !p || p.memoryKiB < params.memoryKiB || p.passes < params.passes || p.lanes < params.lanes;
}

let dummy: Promise<string> | null = null;
/** Spends the time of one verification, so an unknown email answers as slowly as a wrong password. */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummy ??= hashPassword('looptale-dummy-password');
  await verifyPassword(password, await dummy);
}

/** Why a password found on the list of the most common ones is refused (GoTrue's reason for a leaked password). */
export const COMMON_PASSWORD_MESSAGE =
  'This password is one of the most common ones, which attackers try first: choose one that is less predictable (a few unrelated words work well).';

/** GoTrue's weak-password check, with our minimum length. Returns the message and reasons, or null when fine. */
export function passwordWeakness(password: string): { message: string; reasons: string[] } | null {
  if (password.length < MIN_PASSWORD_LENGTH) return { message: `Password should be at least ${MIN_PASSWORD_LENGTH} characters.`, reasons: ['length'] };
  if (password.length > MAX_PASSWORD_LENGTH) return { message: `Password should be at most ${MAX_PASSWORD_LENGTH} characters.`, reasons: ['length'] };
  if (isCommonPassword(password)) return { message: COMMON_PASSWORD_MESSAGE, reasons: ['pwned'] };
  return null;
}

// --- Earlier versions' scrypt hashes: verified only, never written. -------------------------------------------------

type ScryptParams = { logN: number; r: number; p: number };
const SCRYPT_KEY_LEN = 32;

function parseScrypt(stored: string): { params: ScryptParams; salt: Buffer; key: Buffer } | null {
  const m = /^scrypt\$(\d{1,2})\$(\d{1,2})\$(\d{1,2})\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/.exec(stored);
  if (!m) return null;
  const params = { logN: Number(m[1]), r: Number(m[2]), p: Number(m[3]) };
  if (params.logN < 10 || params.logN > 20 || params.r < 1 || params.r > 32 || params.p < 1 || params.p > 16) return null;
  return { params, salt: Buffer.from(m[4] ?? '', 'base64url'), key: Buffer.from(m[5] ?? '', 'base64url') };
}

async function verifyScrypt(password: string, stored: string): Promise<boolean> {
  const s = parseScrypt(stored);
  if (!s || s.key.length !== SCRYPT_KEY_LEN) return false;
  const N = 2 ** s.params.logN;
  const key = await new Promise<Buffer>((resolve, reject) => {
    scrypt(normalize(password), s.salt, SCRYPT_KEY_LEN, { N, r: s.params.r, p: s.params.p, maxmem: 256 * N * s.params.r }, (err, k) => (err ? reject(err) : resolve(k)));
  });
  return timingSafeEqual(key, s.key);
}
