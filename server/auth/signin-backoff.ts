// Password sign-in failures, per account and client address: the first FREE_FAILURES are free; after that the pair
// waits 1 s, 2 s, 4 s... (at most MAX_DELAY_MS) after each failure before it may try again. A success clears the pair.
// An attacker guessing from one address is slowed to a crawl, while the account's owner, from another address (or
// from the same one once the delay is over), signs in: there is no lock-out. Against many addresses at once, each
// one is still held to the per-address limit (AUTH_LIMITS.signin.ip) and the cost of argon2id, and once an account
// collects ACCOUNT_ALARM failures within an hour, addresses it has not been signed in from lately start backing off at
// their first failure (addresses with a recent success keep their free tries).
// The counters live in a LimitStore: in memory for one process, in PostgreSQL when processes share it.
import { AuthApiError } from './errors.js';
import type { LimitStore } from './limit-store.js';

const FREE_FAILURES = 5;
const BASE_DELAY_MS = 1000;
const MAX_DELAY_MS = 15 * 60_000;
/** A pair not seen for this long is forgotten. */
const FORGET_MS = 60 * 60_000;
/** An address that signed in to an account is trusted with free tries for it this long. */
const TRUST_MS = 30 * 24 * 60 * 60_000;
const ACCOUNT_ALARM = 100;

type Pair = { failures: number; lastFailureAt: number; nextAllowedAt: number };
type Account = { failures: number; since: number };

export class SignInBackoff {
  constructor(private readonly now: () => number, private readonly store: LimitStore) {}

  /** Throws 429 (with Retry-After) while this account and address must wait. */
  async check(email: string, ip: string): Promise<void> {
    const pair = await this.store.get<Pair>(pairKey(email, ip));
    const wait = pair ? pair.nextAllowedAt - this.now() : 0;
    if (wait > 0) {
      const s = Math.ceil(wait / 1000);
      throw new AuthApiError(429, 'over_request_rate_limit', `Too many failed sign-ins for this account from this address: wait ${s} second${s === 1 ? '' : 's'} and try again.`, {}, { 'retry-after': String(s) });
    }
  }

  async failed(email: string, ip: string): Promise<void> {
    const t = this.now();
    const alarm = await this.store.update<Account, Account>(`signin:account:${email}`, (a) => {
      const next = a && t - a.since < FORGET_MS ? { failures: a.failures + 1, since: a.since } : { failures: 1, since: t };
      return { state: next, ttlMs: next.since + FORGET_MS - t, result: next };
    });
    const trustedAt = (await this.store.get<number>(trustKey(email, ip))) ?? 0;
    const trusted = trustedAt > t - TRUST_MS;
    const free = alarm.failures > ACCOUNT_ALARM && !trusted ? 0 : FREE_FAILURES;
    await this.store.update<Pair, null>(pairKey(email, ip), (p) => {
      const pair = p ? { ...p } : { failures: 0, lastFailureAt: t, nextAllowedAt: 0 };
      pair.failures++;
      pair.lastFailureAt = t;
      if (pair.failures >= free) pair.nextAllowedAt = t + Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (pair.failures - free));
      return { state: pair, ttlMs: Math.max(pair.nextAllowedAt - t, 0) + FORGET_MS, result: null };
    });
  }

  async succeeded(email: string, ip: string): Promise<void> {
    const t = this.now();
    await this.store.update(pairKey(email, ip), () => ({ state: null, ttlMs: 0, result: null }));
    await this.store.update(trustKey(email, ip), () => ({ state: t, ttlMs: TRUST_MS, result: null }));
  }
}

const pairKey = (email: string, ip: string): string => `signin:pair:${email}\n${ip}`;
const trustKey = (email: string, ip: string): string => `signin:trust:${email}\n${ip}`;
