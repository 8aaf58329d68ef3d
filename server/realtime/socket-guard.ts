// Per-user limits and token lifetime for /ws, kept beside the transport (socket-server.ts calls in at four points:
// upgrade, open, message, close):
//   - at most WS_MAX_SOCKETS_PER_USER open sockets per user: a new one closes the user's oldest (1008);
//   - WS_USER_RATE_LIMIT messages per 10 s per user across all their sockets (the socket that goes over is closed
//     with 1008), on top of the per-socket WS_RATE_LIMIT;
//   - WS_CONNECTS_PER_MINUTE new connections per user (the upgrade is refused with 429);
//   - a socket closes when the access token it was opened with expires (4001), unless the client sends a fresh token
//     of the same user over it first: ACCESS_TOKEN\0{"access_token":"<jwt>"} (the token a refresh returned).
// In memory, per process: with several processes on one PostgreSQL each enforces its own.
import { decodeJwt } from 'jose';
import type { WebSocket } from 'ws';
import type { VerifiedToken } from '../auth/service.js';
import type { Config } from '../config.js';
import { RateLimiter } from '../http/rate-limit.js';
import type { Logger } from '../log.js';

export const CLOSE_TOKEN_EXPIRED = 4001;
export const EXPIRED_REASON = 'Access token expired: send ACCESS_TOKEN with a fresh one before it expires, or reconnect.';
export const TOO_MANY_SOCKETS_REASON = 'Too many open connections for this account: the oldest was closed.';
export const TOO_MANY_MESSAGES_REASON = 'Too many messages: slow down.';
/**
 * How often open sockets are checked for an expired token: one timer for all of them (a timer per socket cost about
 * 700 bytes of heap per idle socket, each distinct delay getting its own timer list). A socket closes within this
 * long after its token's expiry.
 */
export const EXPIRY_SWEEP_MS = 1000;

export type GuardConfig = Pick<Config, 'WS_MAX_SOCKETS_PER_USER' | 'WS_USER_RATE_LIMIT' | 'WS_CONNECTS_PER_MINUTE'>;

export type GuardedSocket = { readonly userId: string; readonly ws: WebSocket; expiresAt: number };

export class SocketGuard {
  readonly #config: GuardConfig;
  readonly #log: Logger;
  readonly #verify: (token: string) => Promise<VerifiedToken | null>;
  readonly #now: () => number;
  /** Each user's open sockets, oldest first. */
  readonly #byUser = new Map<string, GuardedSocket[]>();
  readonly #messages: RateLimiter;
  readonly #connects: RateLimiter;
  /** Runs while a socket with an expiring token is open. */
  #sweeper: NodeJS.Timeout | null = null;

  constructor(o: { config: GuardConfig; log: Logger; verify: (token: string) => Promise<VerifiedToken | null>; now?: () => number }) {
    this.#config = o.config;
    this.#log = o.log;
    this.#verify = o.verify;
    this.#now = o.now ?? Date.now;
    this.#messages = new RateLimiter(o.config.WS_USER_RATE_LIMIT, 10_000);
    this.#connects = new RateLimiter(o.config.WS_CONNECTS_PER_MINUTE, 60_000);
  }

  /** At the upgrade: false when this user opened too many connections this minute. */
  mayConnect(userId: string): boolean {
    return this.#connects.allow(userId, this.#now());
  }

  /** A socket just opened with `token` (already verified): registered, the user's oldest closed past the cap. */
  admit(ws: WebSocket, userId: string, token: string): GuardedSocket {
    const g: GuardedSocket = { userId, ws, expiresAt: expiryOf(token) };
    const open = this.#byUser.get(userId) ?? [];
    open.push(g);
    this.#byUser.set(userId, open);
    while (open.length > this.#config.WS_MAX_SOCKETS_PER_USER) {
      const oldest = open.shift();
      if (!oldest) break;
      oldest.expiresAt = Infinity; // closing: not expired later
      oldest.ws.close(1008, TOO_MANY_SOCKETS_REASON);
    }
    this.#arm(g);
    return g;
  }

  /** Every incoming message: false (and the socket closed) when the user is over the rate. */
  allowMessage(g: GuardedSocket): boolean {
    if (this.#messages.allow(g.userId, this.#now())) return true;
    g.ws.close(1008, TOO_MANY_MESSAGES_REASON);
    return false;
  }

  /** An ACCESS_TOKEN frame: the socket now lives until the new token's expiry; a refusal is explained and changes nothing. */
  async refresh(g: GuardedSocket, token: string, refuse: (message: string) => void): Promise<void> {
    const verified = await this.#verify(token).catch(() => null);
    if (!verified || verified.user.id !== g.userId || verified.expiresAt <= this.#now()) {
      refuse('The access token sent over the socket was refused (invalid, expired, or not this account\'s): this connection still closes when the token it was opened with expires.');
      return;
    }
    g.expiresAt = verified.expiresAt;
    this.#arm(g);
  }

  /** The socket closed. */
  release(g: GuardedSocket): void {
    const open = this.#byUser.get(g.userId);
    if (!open) return;
    const i = open.indexOf(g);
    if (i >= 0) open.splice(i, 1);
    if (open.length === 0) this.#byUser.delete(g.userId);
    if (this.#byUser.size === 0) this.#stopSweeper();
  }

  /** Open sockets of a user. */
  count(userId: string): number {
    return this.#byUser.get(userId)?.length ?? 0;
  }

  close(): void {
    this.#stopSweeper();
    this.#byUser.clear();
  }

  /** Makes sure expired sockets are looked for while `g` has an expiry. */
  #arm(g: GuardedSocket): void {
    if (!Number.isFinite(g.expiresAt) || this.#sweeper) return;
    this.#sweeper = setInterval(() => this.#sweep(), EXPIRY_SWEEP_MS);
    this.#sweeper.unref();
  }

  #sweep(): void {
    const now = this.#now();
    for (const open of this.#byUser.values()) {
      for (const g of open) {
        if (g.expiresAt > now) continue;
        g.expiresAt = Infinity; // closing: once
        this.#log.info({ user: g.userId }, 'socket closed: access token expired');
        g.ws.close(CLOSE_TOKEN_EXPIRED, EXPIRED_REASON);
      }
    }
  }

  #stopSweeper(): void {
    if (this.#sweeper) clearInterval(this.#sweeper);
    this.#sweeper = null;
  }
}

/** The `exp` of a token already verified (ms since the epoch); never for a token without one. */
function expiryOf(token: string): number {
  try {
    const exp = decodeJwt(token).exp;
    return typeof exp === 'number' ? exp * 1000 : Infinity;
  } catch {
    return Infinity;
  }
}
