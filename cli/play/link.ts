// The realtime link of `looptale play`: a GameSocket run by the engine's connection machine (engine/client/
// connection.ts): when the socket drops it retries every 5 s up to 50 times and replays the unanswered input with
// its input_id (the server answers a replay once). This file only carries out the machine's effects.
import {
  type Connection, type ConnectionEffect, type ConnectionEvent, type ConnectionStatus, CONNECTION_TEXT, initialConnection,
  PENDING_TIMEOUT_MS, PENDING_TIMER, transitionConnection,
} from '../../engine/client/connection.js';
import type { UserInput } from '../../engine/protocol/user-input.js';
import { type AudioChunk, GameSocket, type TurnResult } from '../lib/game-client.js';
import { CliError } from '../lib/story-file.js';

export type Outgoing = { readonly input: UserInput; readonly audio?: Uint8Array };

type Waiter = { inputId: string; resolve: (r: TurnResult) => void };

function failed(inputId: string, error: string): TurnResult {
  return { input_id: inputId, outputs: [], forging: [], modifiers: [], error, firstOutputMs: -1, lastOutputMs: -1 };
}

export class Link {
  #state: Connection<Outgoing> = initialConnection();
  #socket: GameSocket | null = null;
  #timers = new Map<string, NodeJS.Timeout>();
  #waiter: Waiter | null = null;
  onStatus: ((status: ConnectionStatus) => void) | null = null;
  onAudio: ((chunk: AudioChunk) => void) | null = null;

  private constructor(readonly url: string, readonly token: string) {}

  /** Opens the first connection; failing to open it is an error (no retry before anything was played). */
  static async open(url: string, token: string): Promise<Link> {
    const link = new Link(url, token);
    let socket: GameSocket;
    try {
      socket = await GameSocket.connect(url, token);
    } catch (e) {
      throw new CliError(`Cannot open the game connection: ${(e as Error).message}`, 1);
    }
    link.#dispatch({ type: 'connect', hasSession: true }, socket);
    return link;
  }

  get status(): ConnectionStatus {
    return this.#state.status;
  }

  /** Sends one input and resolves with its answer (after any reconnects), or with an error. */
  send(input: UserInput, audio?: Uint8Array): Promise<TurnResult> {
    if (this.#state.status === 'lost' || this.#state.status === 'closed') return Promise.resolve(failed(input.input_id, CONNECTION_TEXT.lost));
    return new Promise((resolve) => {
      this.#waiter = { inputId: input.input_id, resolve };
      this.#dispatch({ type: 'send', inputId: input.input_id, message: { input, ...(audio ? { audio } : {}) } });
    });
  }

  close(): Promise<void> {
    const socket = this.#socket;
    this.#dispatch({ type: 'disconnect' });
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
    w.resolve(result ?? failed(w.inputId, error));
  }

  #run(effect: ConnectionEffect<Outgoing>, opened?: GameSocket): void {
    switch (effect.type) {
      case 'open_socket':
        if (opened) this.#adopt(opened);
        else {
          GameSocket.connect(this.url, this.token).then((s) => this.#adopt(s), () => this.#dispatch({ type: 'closed' }));
        }
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
      case 'start_timer': {
        clearTimeout(this.#timers.get(effect.key));
        this.#timers.set(effect.key, setTimeout(() => {
          this.#timers.delete(effect.key);
          const waiting = this.#waiter;
          this.#dispatch({ type: 'timer', key: effect.key });
          if (effect.key === PENDING_TIMER && waiting && this.#state.pending === null) {
            this.#settle(`No answer from the server within ${PENDING_TIMEOUT_MS / 1000} s.`);
          }
        }, effect.ms));
        return;
      }
      case 'cancel_timer':
        clearTimeout(this.#timers.get(effect.key));
        this.#timers.delete(effect.key);
    }
  }

  #adopt(socket: GameSocket): void {
    this.#socket = socket;
    socket.onAudio = (chunk) => this.onAudio?.(chunk);
    socket.raw.once('close', () => {
      if (this.#socket === socket) {
        this.#socket = null;
        this.#dispatch({ type: 'closed' });
      }
    });
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
      // Cut off mid-turn: the machine replays the input once the connection is back.
      if (r.outputs.length === 0 && r.error?.startsWith('connection closed') && this.#state.status !== 'connected') return;
      this.#dispatch({ type: 'output', inputId: r.input_id });
      if (this.#waiter?.inputId === r.input_id) this.#settle('', r);
    }, (e: unknown) => this.#settle((e as Error).message));
  }
}
