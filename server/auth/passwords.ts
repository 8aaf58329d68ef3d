// Password hashing with scrypt (node:crypto). The stored string carries its own parameters and salt, so the cost can
// be raised later: a sign-in with an older cost rehashes the password (`needsRehash`).
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

export type ScryptParams = { logN: number; r: number; p: number };

/** 2^15 x 8 x 1: about 32 MiB and a few tens of milliseconds per hash on a server core. */
export const DEFAULT_PARAMS: ScryptParams = { logN: 15, r: 8, p: 1 };
const KEY_LEN = 32;
const SALT_LEN = 16;
export const MIN_PASSWORD_LENGTH = 8;
/** Caps the work an attacker can ask for with a huge password. */
export const MAX_PASSWORD_LENGTH = 1024;

function derive(password: string, salt: Buffer, p: ScryptParams): Promise<Buffer> {
  const N = 2 ** p.logN;
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LEN, { N, r: p.r, p: p.p, maxmem: 256 * N * p.r }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export async function hashPassword(password: string, params: ScryptParams = DEFAULT_PARAMS): Promise<string> {
  const salt = randomBytes(SALT_LEN);
  const key = await derive(password, salt, params);
  return `scrypt$${params.logN}$${params.r}$${params.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

function parse(stored: string): { params: ScryptParams; salt: Buffer; key: Buffer } | null {
  const m = /^scrypt\$(\d{1,2})\$(\d{1,2})\$(\d{1,2})\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/.exec(stored);
  if (!m) return null;
  const params = { logN: Number(m[1]), r: Number(m[2]), p: Number(m[3]) };
  if (params.logN < 10 || params.logN > 20 || params.r < 1 || params.p < 1) return null;
  return { params, salt: Buffer.from(m[4] ?? '', 'base64url'), key: Buffer.from(m[5] ?? '', 'base64url') };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const s = parse(stored);
  if (!s || s.key.length === 0) return false;
  const key = await derive(password, s.salt, s.params);
  return key.length === s.key.length && timingSafeEqual(key, s.key);
}

export function needsRehash(stored: string, params: ScryptParams = DEFAULT_PARAMS): boolean {
  const s = parse(stored);
  return !s || s.params.logN < params.logN || s.params.r < params.r || s.params.p < params.p;
}

let dummy: Promise<string> | null = null;
/** Spends the time of one verification, so an unknown email answers as slowly as a wrong password. */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummy ??= hashPassword('looptale-dummy-password');
  await verifyPassword(password, await dummy);
}

/** GoTrue's weak-password check, with our minimum length. Returns the message and reasons, or null when fine. */
export function passwordWeakness(password: string): { message: string; reasons: string[] } | null {
  if (password.length < MIN_PASSWORD_LENGTH) return { message: `Password should be at least ${MIN_PASSWORD_LENGTH} characters.`, reasons: ['length'] };
  if (password.length > MAX_PASSWORD_LENGTH) return { message: `Password should be at most ${MAX_PASSWORD_LENGTH} characters.`, reasons: ['length'] };
  return null;
}
