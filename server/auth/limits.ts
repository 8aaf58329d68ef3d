// Per-email and per-address rate limits for sign-in, sign-up, one-time links, recovery, verification and refresh
// (on top of the app-wide per-address limit). Password sign-in has no per-email limit (anyone could lock the owner
// out with it): failures count per account and address instead, with back-off (signin-backoff.ts). In memory, per
// process: with several processes each enforces its own.
import { RateLimiter } from '../http/rate-limit.js';
import { emailRateLimited, requestRateLimited } from './errors.js';
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
  readonly #byIp = new Map<AuthAction, RateLimiter>();
  readonly #byEmail = new Map<AuthAction, RateLimiter>();
  readonly #emails = new RateLimiter(EMAILS_PER_ADDRESS[0], EMAILS_PER_ADDRESS[1]);
  /** Password failures per account and address. */
  readonly signIn: SignInBackoff;

  constructor(private readonly now: () => number, scale = 1) {
    const n = (x: number): number => Math.max(1, Math.round(x * scale));
    for (const [action, l] of Object.entries(AUTH_LIMITS) as [AuthAction, (typeof AUTH_LIMITS)[AuthAction]][]) {
      this.#byIp.set(action, new RateLimiter(n(l.ip[0]), l.ip[1]));
      if (l.email) this.#byEmail.set(action, new RateLimiter(n(l.email[0]), l.email[1]));
    }
    this.signIn = new SignInBackoff(now);
  }

  /** Throws 429 over_request_rate_limit when the address or the email has asked too often. */
  check(action: AuthAction, ip: string, email?: string | null): void {
    const t = this.now();
    const ipOk = this.#byIp.get(action)!.allow(ip, t);
    const byEmail = this.#byEmail.get(action);
    const emailOk = email && byEmail ? byEmail.allow(email, t) : true;
    if (!ipOk || !emailOk) throw requestRateLimited();
  }

  /** Throws 429 over_email_send_rate_limit when this address has been sent too many emails lately. */
  emailSend(email: string): void {
    if (!this.#emails.allow(email, this.now())) throw emailRateLimited();
  }
}
