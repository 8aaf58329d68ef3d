// What the auth part offers the rest of the server (`services.auth`), beside `services.authenticate`.
import type { AuthUser } from '../http/app.js';

export type SessionEndReason = 'logout' | 'refresh_token_reuse' | 'password_change' | 'banned' | 'unproven_account' | 'account_deleted';

/** Called once per ended session (in this process, and, on PostgreSQL, for sessions ended by other processes). */
export type SessionEndListener = (userId: string, sessionId: string, reason: SessionEndReason) => void;

export type VerifiedToken = {
  user: AuthUser;
  /** The local session the token belongs to; null for tokens issued by Supabase. */
  sessionId: string | null;
  /** When the access token expires (ms since the epoch): a socket opened with it may be closed then. */
  expiresAt: number;
};

export interface AuthService {
  readonly provider: 'local' | 'supabase';
  /** Like `services.authenticate`, with the session id and expiry (for the WebSocket layer). */
  verify(token: string): Promise<VerifiedToken | null>;
  /** Subscribes to session ends (logout, refresh-token reuse, password change); returns the unsubscribe function. */
  onSessionEnd(listener: SessionEndListener): () => void;
}

declare module '../http/app.js' {
  interface Services {
    /** Set by the auth module (optional only because the container is built before the modules run). */
    auth?: AuthService;
  }
}
