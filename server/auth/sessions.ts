// Sessions and refresh tokens. A sign-in creates a session and its first refresh token; each refresh revokes the token
// it uses and issues a child. A revoked token presented again within the reuse interval (10 s, as Supabase Auth) is a
// client racing itself (two tabs, a response lost on the way): it gets a child of its own. Presented later, it leaked:
// the whole session ends. Access tokens are checked against the session (cached briefly), so logging out takes effect
// at once.
import type { Db, Queryable } from '../db/db.js';
import { notify, type PgListener } from '../db/listen.js';
import type { AuthUser } from '../http/app.js';
import type { Logger } from '../log.js';
import { AuthApiError } from './errors.js';
import type { SessionEndListener, SessionEndReason } from './service.js';
import { randomSecret, sha256, signAccessToken, type AmrEntry } from './tokens.js';
import { isBanned, userJson, type IdentityRow, type UserRow } from './users.js';

const ACTIVE_CACHE_MS = 5_000;
const ENDED_CACHE_MS = 60_000;
const MAX_CACHE = 20_000;

export type Ended = { id: string; user_id: string };
export type ClientInfo = { ip: string; userAgent: string | undefined };

export type SessionsOptions = {
  db: Db;
  log: Logger;
  secret: Uint8Array;
  issuer: () => string;
  ttlS: number;
  /** Seconds after its rotation during which a refresh token may still be used (REFRESH_TOKEN_REUSE_INTERVAL_S). */
  reuseIntervalS: number;
  now: () => number;
};

export class Sessions {
  readonly #o: SessionsOptions;
  readonly #listeners = new Set<SessionEndListener>();
  readonly #cache = new Map<string, { user: AuthUser | null; until: number }>();
  /** Sessions already announced (here or heard from another process), so none is announced twice. */
  readonly #announced = new Map<string, number>();

  constructor(o: SessionsOptions) {
    this.#o = o;
  }

  onSessionEnd(listener: SessionEndListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Creates a session with its first refresh token and records the sign-in. */
  async create(q: Queryable, user: UserRow, method: string, client: ClientInfo): Promise<{ sessionId: string; refreshToken: string; amr: AmrEntry[] }> {
    const now = new Date(this.#o.now());
    const amr: AmrEntry[] = [{ method, timestamp: Math.floor(now.getTime() / 1000) }];
    const s = await q.query<{ id: string }>(
      `INSERT INTO looptale_auth.sessions (user_id, amr, ip, user_agent, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5) RETURNING id`,
      [user.id, JSON.stringify(amr), client.ip, client.userAgent?.slice(0, 512) ?? null, now],
    );
    const sessionId = s.rows[0]!.id;
    const refreshToken = randomSecret();
    await q.query('INSERT INTO looptale_auth.refresh_tokens (token_hash, session_id, user_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)', [sha256(refreshToken), sessionId, user.id, now]);
    await q.query('UPDATE looptale_auth.users SET last_sign_in_at = $2 WHERE id = $1', [user.id, now]);
    user.last_sign_in_at = now;
    return { sessionId, refreshToken, amr };
  }

  /** GoTrue's session JSON: what /token, /verify and /signup answer and what the redirect fragments carry. */
  async response(user: UserRow, identities: IdentityRow[], sessionId: string, amr: AmrEntry[], refreshToken: string): Promise<SessionJson> {
    const nowS = Math.floor(this.#o.now() / 1000);
    const accessToken = await signAccessToken(this.#o.secret, {
      sub: user.id, email: user.email ?? '', role: user.role, session_id: sessionId, aal: 'aal1', amr,
      app_metadata: user.raw_app_meta_data, user_metadata: user.raw_user_meta_data,
    }, this.#o.issuer(), this.#o.ttlS, nowS);
    return {
      access_token: accessToken, token_type: 'bearer', expires_in: this.#o.ttlS, expires_at: nowS + this.#o.ttlS,
      refresh_token: refreshToken, user: userJson(user, identities),
    };
  }

  /** Rotates a refresh token. On reuse of a revoked token the session ends (and that end is committed). */
  async rotate(refreshToken: string): Promise<{ ok: true; userId: string; sessionId: string; refreshToken: string; amr: AmrEntry[] } | { ok: false; error: AuthApiError }> {
    const now = new Date(this.#o.now());
    const out = await this.#o.db.tx(async (q) => {
      const r = await q.query<{ id: string; revoked: boolean; revoked_at: Date; session_id: string; user_id: string; ended_at: Date | null; amr: AmrEntry[]; banned_until: Date | null }>(
        `SELECT rt.id, rt.revoked, rt.updated_at AS revoked_at, rt.session_id, rt.user_id, s.ended_at, s.amr, u.banned_until
           FROM looptale_auth.refresh_tokens rt JOIN looptale_auth.sessions s ON s.id = rt.session_id JOIN looptale_auth.users u ON u.id = rt.user_id
          WHERE rt.token_hash = $1 FOR UPDATE OF rt, s`,
        [sha256(refreshToken)],
      );
      const t = r.rows[0];
      if (!t || t.ended_at) return { ok: false as const, error: new AuthApiError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found'), ended: [] };
      // A rotated token's updated_at is when it was rotated (nothing else touches a revoked token).
      const reused = t.revoked;
      if (reused && now.getTime() > t.revoked_at.getTime() + this.#o.reuseIntervalS * 1000) {
        const ended = await this.end(q, { sessionId: t.session_id }, 'refresh_token_reuse');
        return { ok: false as const, error: new AuthApiError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used'), ended };
      }
      if (isBanned(t, now.getTime())) return { ok: false as const, error: new AuthApiError(400, 'user_banned', 'User is banned'), ended: [] };
      const next = randomSecret();
      // Within the reuse interval the token keeps its rotation time (the interval does not slide) and gets a second
      // child: only its hash is stored, so the child already issued cannot be handed out again (Supabase Auth, which
      // keeps tokens in clear, returns that one instead).
      if (!reused) await q.query('UPDATE looptale_auth.refresh_tokens SET revoked = true, updated_at = $2 WHERE id = $1', [t.id, now]);
      await q.query('INSERT INTO looptale_auth.refresh_tokens (token_hash, session_id, user_id, parent_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)', [sha256(next), t.session_id, t.user_id, t.id, now]);
      await q.query('UPDATE looptale_auth.sessions SET refreshed_at = $2, updated_at = $2 WHERE id = $1', [t.session_id, now]);
      return { ok: true as const, userId: t.user_id, sessionId: t.session_id, refreshToken: next, amr: t.amr, reused };
    });
    if (!out.ok) {
      if (out.ended.length) this.#o.log.warn({ user: out.ended[0]?.user_id, session: out.ended[0]?.id }, 'auth: a revoked refresh token was reused; the session is ended');
      this.announce(out.ended, 'refresh_token_reuse');
      return { ok: false, error: out.error };
    }
    if (out.reused) this.#o.log.info({ user: out.userId, session: out.sessionId }, 'auth: a rotated refresh token was presented again within the reuse interval; issued another');
    return out;
  }

  /**
   * Ends sessions inside a transaction: one session, all of a user's, or all but one. Returns what ended; call
   * `announce` after the commit.
   */
  async end(q: Queryable, f: { sessionId?: string; userId?: string; exceptSessionId?: string }, reason: SessionEndReason): Promise<Ended[]> {
    if (!f.sessionId && !f.userId) throw new Error('end(): give a session or a user');
    const r = await q.query<Ended>(
      `WITH ended AS (
         UPDATE looptale_auth.sessions SET ended_at = $4, end_reason = $5, updated_at = $4
          WHERE ended_at IS NULL AND ($1::uuid IS NULL OR id = $1::uuid) AND ($2::uuid IS NULL OR user_id = $2::uuid)
            AND ($3::uuid IS NULL OR id <> $3::uuid)
          RETURNING id, user_id),
       revoked AS (
         UPDATE looptale_auth.refresh_tokens SET revoked = true, updated_at = $4 WHERE session_id IN (SELECT id FROM ended) AND NOT revoked)
       SELECT id, user_id FROM ended`,
      [f.sessionId ?? null, f.userId ?? null, f.exceptSessionId ?? null, new Date(this.#o.now()), reason],
    );
    // Delivered to every process's listener when this transaction commits (PGlite: one process, nobody else to tell).
    if (this.#o.db.kind === 'postgres') {
      for (let i = 0; i < r.rows.length; i += IDS_PER_NOTIFY) {
        await notify(q, SESSION_END_CHANNEL, JSON.stringify(r.rows.slice(i, i + IDS_PER_NOTIFY).map((x) => x.id)));
      }
    }
    return r.rows;
  }

  /** Forgets cached lookups of ended sessions and tells the listeners. */
  announce(ended: readonly Ended[], reason: SessionEndReason): void {
    const now = this.#o.now();
    if (this.#announced.size > MAX_CACHE) {
      for (const [id, at] of this.#announced) if (at < now - 120_000) this.#announced.delete(id);
    }
    for (const s of ended) {
      this.#cache.set(s.id, { user: null, until: now + ENDED_CACHE_MS });
      if (this.#announced.has(s.id)) continue;
      this.#announced.set(s.id, now);
      for (const l of this.#listeners) {
        try {
          l(s.user_id, s.id, reason);
        } catch (err) {
          this.#o.log.error({ err }, 'auth: a session-end listener failed');
        }
      }
    }
  }

  /** The user of an active session, or null when it ended, its user is banned or gone. Cached for a few seconds. */
  async activeUser(sessionId: string, sub: string): Promise<AuthUser | null> {
    const now = this.#o.now();
    const hit = this.#cache.get(sessionId);
    if (hit && hit.until > now) return hit.user && hit.user.id === sub ? hit.user : null;
    const r = await this.#o.db.query<{ user_id: string; ended_at: Date | null; email: string | null; role: string; banned_until: Date | null }>(
      'SELECT s.user_id, s.ended_at, u.email, u.role, u.banned_until FROM looptale_auth.sessions s JOIN looptale_auth.users u ON u.id = s.user_id WHERE s.id = $1',
      [sessionId],
    );
    const row = r.rows[0];
    const user = row && !row.ended_at && !isBanned(row, now) ? { id: row.user_id, email: row.email, role: row.role } : null;
    if (this.#cache.size >= MAX_CACHE) this.#cache.clear();
    this.#cache.set(sessionId, { user, until: now + (user ? ACTIVE_CACHE_MS : ENDED_CACHE_MS) });
    return user && user.id === sub ? user : null;
  }

  /**
   * On PostgreSQL several processes share the sessions. Each end is notified on SESSION_END_CHANNEL when its
   * transaction commits; every process listens and tells its own listeners (the WebSocket layer closes that session's
   * sockets). After a reconnect of the listening connection, what ended meanwhile is read back from the table.
   */
  listenTo(listener: PgListener): void {
    listener.on(SESSION_END_CHANNEL, (payload) => {
      const ids = parseEndPayload(payload);
      if (ids.length) void this.#confirmEnded(ids);
    });
    listener.onConnect(async (c) => {
      if (!c.reconnected) return;
      // A transaction that started earlier may commit later with an older ended_at: look back a little, dedupe.
      const since = new Date((c.since?.getTime() ?? this.#o.now()) - 30_000);
      const r = await this.#o.db.query<Ended & { end_reason: SessionEndReason }>(
        'SELECT id, user_id, end_reason FROM looptale_auth.sessions WHERE ended_at > $1 ORDER BY ended_at LIMIT 5000',
        [since],
      );
      for (const row of r.rows) this.announce([{ id: row.id, user_id: row.user_id }], row.end_reason);
    });
  }

  /**
   * A notification names sessions; the table says whether they ended, whose they were and why (so a stray NOTIFY on
   * the channel cannot sign anyone out).
   */
  async #confirmEnded(ids: string[]): Promise<void> {
    const fresh = ids.filter((id) => !this.#announced.has(id));
    if (!fresh.length) return;
    try {
      const r = await this.#o.db.query<Ended & { end_reason: SessionEndReason }>(
        'SELECT id, user_id, end_reason FROM looptale_auth.sessions WHERE id = ANY($1::uuid[]) AND ended_at IS NOT NULL',
        [fresh],
      );
      for (const row of r.rows) this.announce([{ id: row.id, user_id: row.user_id }], row.end_reason);
    } catch (err) {
      this.#o.log.warn({ err: { message: (err as Error).message } }, 'auth: reading sessions another process ended failed');
    }
  }
}

/** The channel on which ended sessions are announced to every server process (payload: a JSON array of ids). */
export const SESSION_END_CHANNEL = 'looptale_session_end';
const IDS_PER_NOTIFY = 150;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function parseEndPayload(payload: string): string[] {
  try {
    const v: unknown = JSON.parse(payload);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && UUID_RE.test(x)).slice(0, IDS_PER_NOTIFY) : [];
  } catch {
    return [];
  }
}

export type SessionJson = {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: Record<string, unknown>;
};
