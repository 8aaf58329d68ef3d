// The realtime connection as the client sees it (game spec §4 "Connection", §8 "Disconnect", §9): connected,
// reconnecting, or anything else (shown as lost); one pending message that is replayed after a reconnect until the
// server confirms it or 60000 ms pass; a retry every 5000 ms, giving up after 50 attempts.
import {
  type TimerEffect, type TimerFired, type Transition, cancelTimer, refuse, startTimer,
} from './effects.js';

export const RECONNECT_INTERVAL_MS = 5000;
export const MAX_RECONNECT_ATTEMPTS = 50;
export const PENDING_TIMEOUT_MS = 60000;
export const RETRY_TIMER = 'connection:retry';
export const PENDING_TIMER = 'connection:pending';

export const CONNECTION_TEXT = { reconnecting: 'Reconnecting...', lost: 'Connection lost' } as const;

/** 'connecting' and 'closed' are the spec's "other" states, as is 'lost' (gave up). */
export type ConnectionStatus = 'connecting' | 'connected' | 'reconnecting' | 'lost' | 'closed';

export interface Pending<M> {
  readonly inputId: string;
  readonly message: M;
}

export interface Connection<M> {
  readonly status: ConnectionStatus;
  /** Reconnect attempts made since the connection was last open. */
  readonly attempts: number;
  /** In 'reconnecting': waiting for the retry timer (true) or for the attempt's outcome (false). */
  readonly waiting: boolean;
  readonly pending: Pending<M> | null;
}

export type ConnectionEvent<M> =
  /** Open a connection (entering the game, or the player retrying after it was lost). */
  | { readonly type: 'connect'; readonly hasSession: boolean }
  | { readonly type: 'opened' }
  /** The socket closed or failed to open. */
  | { readonly type: 'closed' }
  /** Leaving the game: close for good, nothing is replayed. */
  | { readonly type: 'disconnect' }
  | { readonly type: 'send'; readonly inputId: string; readonly message: M }
  /** A GAME_OUTPUT arrived; it confirms the pending message if its input_id matches. */
  | { readonly type: 'output'; readonly inputId: string }
  | TimerFired;

export type ConnectionEffect<M> =
  | TimerEffect
  | { readonly type: 'open_socket' }
  | { readonly type: 'close_socket' }
  | { readonly type: 'send'; readonly message: M; readonly replay: boolean };

export type ConnectionTransition<M> = Transition<Connection<M>, ConnectionEffect<M>>;

export function initialConnection<M>(): Connection<M> {
  return { status: 'closed', attempts: 0, waiting: false, pending: null };
}

/** The overlay covering the game, or null when connected. */
export function connectionOverlay(c: Connection<unknown>): string | null {
  switch (c.status) {
    case 'connected': return null;
    case 'reconnecting': return CONNECTION_TEXT.reconnecting;
    // The first connection is under way, not lost: 'Connection lost' would be false, so it reads as reconnecting.
    case 'connecting': return CONNECTION_TEXT.reconnecting;
    case 'lost':
    case 'closed': return CONNECTION_TEXT.lost;
  }
}

export function transitionConnection<M>(c: Connection<M>, event: ConnectionEvent<M>): ConnectionTransition<M> {
  switch (event.type) {
    case 'connect': return connect(c, event.hasSession);
    case 'opened': return opened(c);
    case 'closed': return closed(c);
    case 'disconnect': return disconnect(c);
    case 'send': return send(c, event.inputId, event.message);
    case 'output': return confirm(c, event.inputId);
    case 'timer': return timer(c, event.key);
  }
}

function connect<M>(c: Connection<M>, hasSession: boolean): ConnectionTransition<M> {
  if (!hasSession) return refuse(c, 'connection/no_session', 'A session is needed for the realtime connection.');
  if (c.status !== 'closed' && c.status !== 'lost') {
    return refuse(c, 'connection/already_open', 'The connection is already open or opening.');
  }
  return { state: { ...c, status: 'connecting', attempts: 0, waiting: false }, effects: [{ type: 'open_socket' }] };
}

function opened<M>(c: Connection<M>): ConnectionTransition<M> {
  if (c.status !== 'connecting' && !(c.status === 'reconnecting' && !c.waiting)) return { state: c, effects: [] };
  const effects: ConnectionEffect<M>[] = [];
  // Replayed after a reconnect; on a first connection a message queued while connecting goes out now.
  if (c.pending) effects.push({ type: 'send', message: c.pending.message, replay: c.status === 'reconnecting' });
  return { state: { ...c, status: 'connected', attempts: 0, waiting: false }, effects };
}

function closed<M>(c: Connection<M>): ConnectionTransition<M> {
  if (c.status === 'closed' || c.status === 'lost') return { state: c, effects: [] };
  if (c.status === 'reconnecting' && c.waiting) return { state: c, effects: [] };
  if (c.attempts >= MAX_RECONNECT_ATTEMPTS) {
    return { state: { ...c, status: 'lost', waiting: false }, effects: [] };
  }
  return {
    state: { ...c, status: 'reconnecting', waiting: true },
    effects: [startTimer(RETRY_TIMER, RECONNECT_INTERVAL_MS)],
  };
}

function disconnect<M>(c: Connection<M>): ConnectionTransition<M> {
  const effects: ConnectionEffect<M>[] = [];
  if (c.status === 'reconnecting' && c.waiting) effects.push(cancelTimer(RETRY_TIMER));
  if (c.pending) effects.push(cancelTimer(PENDING_TIMER));
  if (c.status !== 'closed' && c.status !== 'lost') effects.push({ type: 'close_socket' });
  return { state: { status: 'closed', attempts: 0, waiting: false, pending: null }, effects };
}

// One message is pending at a time: a newer input replaces an older unconfirmed one (the server answers inputs in
// order, and replaying a stale answer after the player has moved on would be wrong). While not connected the message
// waits and goes out once the connection opens; it is never sent twice on one connection.
function send<M>(c: Connection<M>, inputId: string, message: M): ConnectionTransition<M> {
  const pending: Pending<M> = { inputId, message };
  const effects: ConnectionEffect<M>[] = [startTimer(PENDING_TIMER, PENDING_TIMEOUT_MS)];
  if (c.status === 'connected') effects.unshift({ type: 'send', message, replay: false });
  return { state: { ...c, pending }, effects };
}

function confirm<M>(c: Connection<M>, inputId: string): ConnectionTransition<M> {
  if (c.pending === null || c.pending.inputId !== inputId) return { state: c, effects: [] };
  return { state: { ...c, pending: null }, effects: [cancelTimer(PENDING_TIMER)] };
}

function timer<M>(c: Connection<M>, key: string): ConnectionTransition<M> {
  if (key === PENDING_TIMER && c.pending !== null) return { state: { ...c, pending: null }, effects: [] };
  if (key === RETRY_TIMER && c.status === 'reconnecting' && c.waiting) {
    return { state: { ...c, attempts: c.attempts + 1, waiting: false }, effects: [{ type: 'open_socket' }] };
  }
  return { state: c, effects: [] };
}
