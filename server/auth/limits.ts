// Per-email and per-address rate limits for sign-in, sign-up, one-time links, recovery, verification and refresh
// (on top of the app-wide per-address limit). Password sign-in has no per-email limit (anyone could lock the owner
// out with it): failures count per account and address instead, with back-off (signin-backoff.ts). The counters live
// in a LimitStore (limit-store.ts): in memory for one process, in PostgreSQL when several processes share it, so N
// processes allow the attempts of one.
import { emailRateLimited, requestRateLimited } from './errors.js';
import { type LimitStore, MemoryLimitStore, windowHit } from './limit-store.js';
import { SignInBackoff } from './signin-backoff.js';

const MIN = 60_000;

/** [requests, window ms] per client address and per email address. */
export const AUTH_LIMITS = {
  signin: { ip: [60, 5 * MIN], email: null },
  signup: { ip: [30, 10 * MIN], email: [10, 10 * MIN] },
  otp: { ip: [30, 10 * MIN], email: [10, 10 * MIN] },
  recover: { ip: [30, 10 * MIN], email: [10, 10 * MIN] },
  verify: { ip: [60, 5 * MIN], email: [10, 5 * MIN] },
  refresh: { ip: [300, 5 * MIN], email: [300, 5 * MIN] },
} as const satisfies Record<string, { ip: readonly [number, number]; email: readonly [number, number] | null }>;

/** Emails sent to one address (links and codes), whatever asked for them. */
export const EMAILS_PER_ADDRESS: readonly [number, number] = [5, 60 * MIN];

export type AuthAction = keyof typeof AUTH_LIMITS;

export class AuthLimits {
  /** Password failures per account and address. */
  readonly signIn: SignInBackoff;
  readonly #n: (x: number) => number;

  constructor(private readonly now: () => number, scale = 1, readonly store: LimitStore = new MemoryLimitStore(now)) {
    this.#n = (x) => Math.max(1, Math.round(x * scale));
    this.signIn = new SignInBackoff(now, store);
  }

  /** Throws 429 over_request_rate_limit when the address or the email has asked too often. */
  async check(action: AuthAction, ip: string, email?: string | null): Promise<void> {
    const t = this.now();
    const l = AUTH_LIMITS[action];
    // Both count, as before: a refused address still spends the email's budget and the other way round.
    const ipOk = await windowHit(this.store, `${action}:ip:${ip}`, this.#n(l.ip[0]), l.ip[1], t);
    const emailOk = email && l.email ? await windowHit(this.store, `${action}:email:${email}`, this.#n(l.email[0]), l.email[1], t) : true;
    if (!ipOk || !emailOk) throw requestRateLimited();
  }

  /** Throws 429 over_email_send_rate_limit when this address has been sent too many emails lately. */
  async emailSend(email: string): Promise<void> {
    if (!(await windowHit(this.store, `emails:${email}`, EMAILS_PER_ADDRESS[0], EMAILS_PER_ADDRESS[1], this.now()))) throw emailRateLimited();
  }
}
