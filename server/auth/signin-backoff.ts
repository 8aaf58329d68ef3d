// Password sign-in failures, per account and client address: the first FREE_FAILURES are free; after that the pair
// waits 1 s, 2 s, 4 s... (at most MAX_DELAY_MS) after each failure before it may try again. A success clears the pair.
// An attacker guessing from one address is slowed to a crawl, while the account's owner, from another address (or
// from the same one once the delay is over), signs in: there is no lock-out. Against many addresses at once, each
// one is still held to the per-address limit (AUTH_LIMITS.signin.ip) and the cost of scrypt, and once an account
// collects ACCOUNT_ALARM failures within an hour, addresses it has not been signed in from lately start backing off at
// their first failure (addresses with a recent success keep their free tries).
// In memory, per process, bounded.
import { AuthApiError } from './errors.js';

const FREE_FAILURES = 5;
const BASE_DELAY_MS = 1000;
const MAX_DELAY_MS = 15 * 60_000;
/** A pair not seen for this long is forgotten. */
const FORGET_MS = 60 * 60_000;
/** An address that signed in to an account is trusted with free tries for it this long. */
const TRUST_MS = 30 * 24 * 60 * 60_000;
const ACCOUNT_ALARM = 100;
const MAX_KEYS = 100_000;

type Pair = { failures: number; lastFailureAt: number; nextAllowedAt: number };

export class SignInBackoff {
  readonly #pairs = new Map<string, Pair>();
  readonly #trusted = new Map<string, number>();
  readonly #accounts = new Map<string, { failures: number; since: number }>();

  constructor(private readonly now: () => number) {}

  /** Throws 429 (with Retry-After) while this account and address must wait. */
  check(email: string, ip: string): void {
    const pair = this.#pairs.get(key(email, ip));
    const wait = pair ? pair.nextAllowedAt - this.now() : 0;
    if (wait > 0) {
      const s = Math.ceil(wait / 1000);
      throw new AuthApiError(429, 'over_request_rate_limit', `Too many failed sign-ins for this account from this address: wait ${s} second${s === 1 ? '' : 's'} and try again.`, {}, { 'retry-after': String(s) });
    }
  }

  failed(email: string, ip: string): void {
    const t = this.now();
    this.#sweep(t);
    const k = key(email, ip);
    const pair = this.#pairs.get(k) ?? { failures: 0, lastFailureAt: t, nextAllowedAt: 0 };
    pair.failures++;
    pair.lastFailureAt = t;
    const account = this.#accounts.get(email);
    const alarm = account && t - account.since < FORGET_MS ? account : { failures: 0, since: t };
    alarm.failures++;
    this.#accounts.set(email, alarm);
    const trusted = (this.#trusted.get(k) ?? 0) > t - TRUST_MS;
    const free = alarm.failures > ACCOUNT_ALARM && !trusted ? 0 : FREE_FAILURES;
    if (pair.failures >= free) pair.nextAllowedAt = t + Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (pair.failures - free));
    this.#pairs.set(k, pair);
  }

  succeeded(email: string, ip: string): void {
    const k = key(email, ip);
    this.#pairs.delete(k);
    if (this.#trusted.size >= MAX_KEYS) this.#trusted.clear();
    this.#trusted.set(k, this.now());
  }

  #sweep(t: number): void {
    if (this.#pairs.size < MAX_KEYS && this.#accounts.size < MAX_KEYS) return;
    for (const [k, p] of this.#pairs) if (t - p.lastFailureAt > FORGET_MS && p.nextAllowedAt < t) this.#pairs.delete(k);
    for (const [k, a] of this.#accounts) if (t - a.since > FORGET_MS) this.#accounts.delete(k);
    if (this.#pairs.size >= MAX_KEYS) this.#pairs.clear();
    if (this.#accounts.size >= MAX_KEYS) this.#accounts.clear();
  }
}

const key = (email: string, ip: string): string => `${email}\n${ip}`;
