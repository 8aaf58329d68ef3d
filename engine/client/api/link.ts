// The realtime link of a game screen: GameSockets run by the connection machine (../connection.ts). When the socket
// drops it retries every 5 s, up to 50 times, and replays the unanswered input with its input_id (the server answers
// a replay once, and applies it once). This file only carries out the machine's effects; the CLI and the web app
// both play through it, with their own socket factory and clock.
import type { Clock } from '../clock.js';
import { TimerHost } from '../clock.js';
import {
  type Connection, type ConnectionEffect, type ConnectionEvent, type ConnectionStatus, CONNECTION_TEXT, initialConnection,
  PENDING_TIMEOUT_MS, PENDING_TIMER, transitionConnection,
} from '../connection.js';
import type { UserInput } from '../../protocol/user-input.js';
import { type AudioChunk, failedTurn, type GameSocket, type TurnResult } from './socket.js';

export type Outgoing = { readonly input: UserInput; readonly audio?: Uint8Array };

type Waiter = { inputId: string; resolve: (r: TurnResult) => void };

/**
 * Fresh access tokens of the session (the web app: supabase-js's TOKEN_REFRESHED). The link hands each one to the
 * server over its open socket (ACCESS_TOKEN), which otherwise closes the socket when its first token expires.
 */
export type TokenRefreshes = { subscribe(listener: (accessToken: string) => void): () => void };

export type LinkOptions = { tokenRefreshes?: TokenRefreshes };

export class Link {
  #state: Connection<Outgoing> = initialConnection();
  #socket: GameSocket | null = null;
  readonly #timers: TimerHost;
  #waiter: Waiter | null = null;
  onStatus: ((status: ConnectionStatus) => void) | null = null;
  onAudio: ((chunk: AudioChunk) => void) | null = null;
  /** A GAME_OUTPUT that answers no turn in flight (a replay's late answer): the screen applies it once, or ignores it. */
  onUnsolicited: ((kind: string, payload: unknown) => void) | null = null;

  #unsubscribeTokens: (() => void) | null = null;

  private constructor(readonly connect: () => Promise<GameSocket>, clock: Clock, opts: LinkOptions) {
    this.#timers = new TimerHost(clock, (key) => this.#timerFired(key));
    this.#unsubscribeTokens = opts.tokenRefreshes?.subscribe((token) => this.sendAccessToken(token)) ?? null;
  }

  /** Opens the first connection; failing to open it is an error (no retry before anything was played). */
  static async open(connect: () => Promise<GameSocket>, clock: Clock, opts: LinkOptions = {}): Promise<Link> {
    const socket = await connect();
    const link = new Link(connect, clock, opts);
    link.#dispatch({ type: 'connect', hasSession: true }, socket);
    return link;
  }

  /**
   * A link that opens in the background: status 'connecting' (shown as 'Reconnecting...') until the first socket is
   * up, then retries like any dropped connection. What the browser uses, so a slow start never blanks the screen.
   */
  static start(connect: () => Promise<GameSocket>, clock: Clock, opts: LinkOptions = {}): Link {
    const link = new Link(connect, clock, opts);
    link.#dispatch({ type: 'connect', hasSession: true });
    return link;
  }

  /**
   * Hands a refreshed access token to the server over the open socket, so that it stays open past the expiry of the
   * token it was opened with. Without an open socket there is nothing to do: the next one opens with the session's
   * current token (`connect`).
   */
  sendAccessToken(accessToken: string): void {
    const s = this.#socket;
    if (s?.isOpen) s.sendAccessToken(accessToken);
  }

  get status(): ConnectionStatus {
    return this.#state.status;
  }

  /** Whether an input is waiting for its answer (sent, or held until the connection is back). */
  get pending(): boolean {
    return this.#state.pending !== null;
  }

  /** Sends one input and resolves with its answer (after any reconnects), or with an error. */
  send(input: UserInput, audio?: Uint8Array): Promise<TurnResult> {
    if (this.#state.status === 'lost' || this.#state.status === 'closed') return Promise.resolve(failedTurn(input.input_id, CONNECTION_TEXT.lost));
    return new Promise((resolve) => {
      this.#waiter = { inputId: input.input_id, resolve };
      this.#dispatch({ type: 'send', inputId: input.input_id, message: { input, ...(audio ? { audio } : {}) } });
    });
  }

  /** After 'Connection lost': try again from the start (50 more attempts). */
  retry(): void {
    if (this.#state.status === 'lost') this.#dispatch({ type: 'connect', hasSession: true });
  }

  /** Drops the socket as a network failure would (tests and the "kill the socket mid-turn" drill). */
  dropSocket(): void {
    const s = this.#socket;
    if (s) void s.close(4000);
  }

  /**
   * The device went offline (the browser's `offline` event). The socket may look open for a long while (no close
   * frame can arrive), so it is given up at once and the link retries as after any drop, the pending input with it.
   */
  networkDown(): void {
    const s = this.#socket;
    if (!s) return;
    this.#socket = null;
    void s.close(4000);
    this.#dispatch({ type: 'closed' });
  }

  close(): Promise<void> {
    this.#unsubscribeTokens?.();
    this.#unsubscribeTokens = null;
    const socket = this.#socket;
    this.#dispatch({ type: 'disconnect' });
    this.#timers.clear();
    return socket ? socket.close() : Promise.resolve();
  }

  #dispatch(event: ConnectionEvent<Outgoing>, opened?: GameSocket): void {
    const before = this.#state.status;
    const t = transitionConnection(this.#state, event);
    this.#state = t.state;
    for (const effect of t.effects) this.#run(effect, opened);
    if (this.#state.status !== before) {
      this.onStatus?.(this.#state.status);
      if (this.#state.status === 'lost') this.#settle(CONNECTION_TEXT.lost);
    }
  }

  #settle(error: string, result?: TurnResult): void {
    const w = this.#waiter;
    if (!w) return;
    this.#waiter = null;
    w.resolve(result ?? failedTurn(w.inputId, error));
  }

  #timerFired(key: string): void {
    const waiting = this.#waiter;
    this.#dispatch({ type: 'timer', key });
    if (key === PENDING_TIMER && waiting && this.#state.pending === null) {
      this.#settle(`No answer from the server within ${PENDING_TIMEOUT_MS / 1000} s.`);
    }
  }

  #run(effect: ConnectionEffect<Outgoing>, opened?: GameSocket): void {
    switch (effect.type) {
      case 'open_socket':
        if (opened) this.#adopt(opened);
        else this.connect().then((s) => this.#adopt(s), () => this.#dispatch({ type: 'closed' }));
        return;
      case 'close_socket': {
        const s = this.#socket;
        this.#socket = null;
        void s?.close();
        return;
      }
      case 'send':
        this.#transmit(effect.message);
        return;
      case 'start_timer':
      case 'cancel_timer':
        this.#timers.run([effect]);
    }
  }

  #adopt(socket: GameSocket): void {
    if (this.#state.status === 'closed' || this.#state.status === 'lost') {
      void socket.close(); // the link was closed while this socket was opening
      return;
    }
    this.#socket = socket;
    socket.onAudio = (chunk) => this.onAudio?.(chunk);
    socket.onUnsolicited = (kind, payload) => this.onUnsolicited?.(kind, payload);
    socket.onClose = () => {
      if (this.#socket === socket) {
        this.#socket = null;
        this.#dispatch({ type: 'closed' });
      }
    };
    this.#dispatch({ type: 'opened' });
  }

  #transmit(message: Outgoing): void {
    const socket = this.#socket;
    if (!socket) return;
    let answer: Promise<TurnResult>;
    try {
      answer = socket.send(message.input, message.audio, PENDING_TIMEOUT_MS);
    } catch (e) {
      this.#settle((e as Error).message); // a turn already in flight: a bug of the caller, reported as this turn's error
      return;
    }
    answer.then((r) => {
      // Cut off mid-turn: the machine replays the input once the connection is back (a socket given up may report its
      // close after the new one is up: its turn is the new socket's now).
      if (r.outputs.length === 0 && r.error?.startsWith('connection closed') && (this.#state.status !== 'connected' || this.#socket !== socket)) return;
      this.#dispatch({ type: 'output', inputId: r.input_id });
      if (this.#waiter?.inputId === r.input_id) this.#settle('', r);
    }, (e: unknown) => this.#settle((e as Error).message));
  }
}
