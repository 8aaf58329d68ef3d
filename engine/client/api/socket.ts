// One realtime connection to /ws, for every client: frames through the engine codec, one turn at a time (the server
// serialises a run's turns anyway), each turn's frames gathered into a TurnResult. Browser-safe: the socket is any
// WHATWG-style WebSocket (the browser's, or the `ws` package's, which the CLI wraps in cli/lib/game-client.ts), and
// time comes from an injected Clock.
import { decodeServerFrame, encodeFrame } from '../../protocol/codec.js';
import type { AudioAnswerHeader } from '../../protocol/frames.js';
import { turnErrorCode, type TurnErrorCode } from '../../protocol/turn-errors.js';
import type { UserInput } from '../../protocol/user-input.js';
import type { EquipmentForging, GameOutput } from '../../schema/game-output.js';
import type { CardModifierNotification } from '../../schema/notification.js';
import type { Clock, TimerHandle } from '../clock.js';
import { ApiError } from './http.js';

/** The part of the WebSocket API this client uses; the browser's WebSocket and `ws`'s both have it. */
export interface SocketLike {
  binaryType: string;
  readonly readyState: number;
  send(data: Uint8Array | string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open', listener: () => void): void;
  addEventListener(type: 'message', listener: (ev: { data: unknown }) => void): void;
  addEventListener(type: 'close', listener: (ev: { code: number; reason: string }) => void): void;
  addEventListener(type: 'error', listener: (ev: unknown) => void): void;
}

export type SocketFactory = (url: string) => SocketLike;

/** WebSocket.readyState values. */
const OPEN = 1;
const CLOSED = 3;

/** Everything the server answered to one USER_INPUT. */
export type TurnResult = {
  input_id: string;
  outputs: GameOutput[];
  forging: EquipmentForging[];
  modifiers: CardModifierNotification[];
  /** The ERROR_MESSAGE text (or the client's own failure), null when the turn went through. */
  error: string | null;
  /** The protocol code of `error` when the server's message is a known one (`stt/not_caught`, ...). */
  errorCode?: TurnErrorCode | null;
  /** Milliseconds from sending to the first GAME_OUTPUT, and to the last. */
  firstOutputMs: number;
  lastOutputMs: number;
};

export type AudioChunk = { header: AudioAnswerHeader; audio: Uint8Array; atMs: number };

/** A turn that failed before or without an answer. */
export function failedTurn(inputId: string, error: string): TurnResult {
  return { input_id: inputId, outputs: [], forging: [], modifiers: [], error, errorCode: turnErrorCode(error), firstOutputMs: -1, lastOutputMs: -1 };
}

/** The /ws URL of a server for a token (http -> ws, https -> wss). */
export function socketUrl(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/^http/, 'ws')}/ws?token=${encodeURIComponent(token)}`;
}

type Pending = {
  input_id: string;
  sentAt: number;
  result: TurnResult;
  resolve: (r: TurnResult) => void;
  timer: TimerHandle;
};

/** Frames that follow a turn's last output (EQUIPMENT_FORGING...) are waited for this long before it resolves. */
const SETTLE_GRACE_MS = 30;

export type GameSocketOptions = {
  clock: Clock;
  /** Makes input ids (crypto.randomUUID where there is one). */
  newId: () => string;
  /** Keep every AUDIO_ANSWER in `audio` (tests, the load harness); off in long-lived browser sessions. */
  keepAudio?: boolean;
};

export class GameSocket {
  readonly #socket: SocketLike;
  readonly #clock: Clock;
  readonly #newId: () => string;
  readonly #keepAudio: boolean;
  #pending: Pending | null = null;
  readonly audio: AudioChunk[] = [];
  onAudio: ((chunk: AudioChunk) => void) | null = null;
  /** Frames outside a turn (a replayed answer, an ERROR_MESSAGE with nothing in flight, a bad frame). */
  onUnsolicited: ((kind: string, payload: unknown) => void) | null = null;
  /** Called once when the socket closes, after any turn in flight was settled. */
  onClose: ((info: { code: number; reason: string }) => void) | null = null;
  closeInfo: { code: number; reason: string } | null = null;

  /** Wraps a socket that is already open. */
  constructor(socket: SocketLike, opts: GameSocketOptions) {
    this.#socket = socket;
    this.#clock = opts.clock;
    this.#newId = opts.newId;
    this.#keepAudio = opts.keepAudio ?? true;
    // A browser socket gives Blobs unless told otherwise; `ws` gives Buffers (Uint8Arrays), which its users rely on.
    if (socket.binaryType === 'blob') socket.binaryType = 'arraybuffer';
    socket.addEventListener('message', (ev) => this.#onMessage(ev.data));
    socket.addEventListener('close', (ev) => {
      this.closeInfo = { code: ev.code, reason: String(ev.reason ?? '') };
      const p = this.#pending;
      if (p) {
        p.timer.cancel();
        this.#pending = null;
        p.resolve({ ...p.result, error: p.result.error ?? `connection closed (${ev.code})` });
      }
      this.onClose?.(this.closeInfo);
    });
  }

  /**
   * Opens a connection with `create` (the browser's `(url) => new WebSocket(url)`); rejects with an ApiError when it
   * cannot open (refused token, server down) or does not open within `timeoutMs`.
   */
  static open(baseUrl: string, token: string, create: SocketFactory, opts: GameSocketOptions & { timeoutMs?: number }): Promise<GameSocket> {
    return new Promise((resolve, reject) => {
      let socket: SocketLike;
      try {
        socket = create(socketUrl(baseUrl, token));
      } catch (e) {
        reject(new ApiError(0, `Cannot connect to ${baseUrl}/ws: ${(e as Error).message}`));
        return;
      }
      let settled = false;
      const timer = opts.clock.after(opts.timeoutMs ?? 10_000, () => {
        if (settled) return;
        settled = true;
        socket.close();
        reject(new ApiError(0, `Cannot connect to ${baseUrl}/ws: no answer within ${opts.timeoutMs ?? 10_000} ms`));
      });
      socket.addEventListener('open', () => {
        if (settled) return;
        settled = true;
        timer.cancel();
        resolve(new GameSocket(socket, opts));
      });
      const failed = (why: string): void => {
        if (settled) return;
        settled = true;
        timer.cancel();
        reject(new ApiError(0, `Cannot connect to ${baseUrl}/ws: ${why}`));
      };
      socket.addEventListener('error', (ev) => failed((ev as { message?: string } | null)?.message ?? 'the connection failed'));
      socket.addEventListener('close', (ev) => failed(`closed (${ev.code}${ev.reason ? `: ${ev.reason}` : ''})`));
    });
  }

  get isOpen(): boolean {
    return this.#socket.readyState === OPEN;
  }

  get busy(): boolean {
    return this.#pending !== null;
  }

  #onMessage(data: unknown): void {
    const now = this.#clock.now();
    if (typeof data === 'string') {
      this.onUnsolicited?.('bad_frame', 'text frame');
      return;
    }
    const r = decodeServerFrame(data as ArrayBuffer | Uint8Array);
    if (!r.ok) {
      this.onUnsolicited?.('bad_frame', r.error);
      return;
    }
    const f = r.frame;
    const p = this.#pending;
    switch (f.type) {
      case 'AUDIO_ANSWER': {
        const chunk = { header: f.header, audio: f.audio, atMs: now };
        if (this.#keepAudio) this.audio.push(chunk);
        this.onAudio?.(chunk);
        return;
      }
      case 'GAME_OUTPUT':
        if (!p || f.output.input_id !== p.input_id) {
          this.onUnsolicited?.('GAME_OUTPUT', f.output);
          return;
        }
        if (p.result.outputs.length === 0) p.result.firstOutputMs = now - p.sentAt;
        p.result.outputs.push(f.output);
        p.result.lastOutputMs = now - p.sentAt;
        // An attack is answered twice: the attack (next phase ai_attack_selection), then the AI's chosen strike.
        if (f.output.battle_state_next_phase !== 'ai_attack_selection') this.#settle(p, SETTLE_GRACE_MS);
        return;
      case 'EQUIPMENT_FORGING':
        p?.result.forging.push(f.payload);
        return;
      case 'CARD_MODIFIER_NOTIFICATION':
        p?.result.modifiers.push(f.payload);
        return;
      case 'ERROR_MESSAGE':
        if (p) {
          p.result.error = f.message;
          p.result.errorCode = turnErrorCode(f.message);
          this.#settle(p, 0);
        } else this.onUnsolicited?.('ERROR_MESSAGE', f.message);
    }
  }

  /** Resolves the pending turn after a short grace period for the frames that follow the output (forging...). */
  #settle(p: Pending, graceMs: number): void {
    p.timer.cancel();
    p.timer = this.#clock.after(graceMs, () => {
      if (this.#pending === p) this.#pending = null;
      p.resolve(p.result);
    });
  }

  /** Sends one USER_INPUT (a new input_id unless given) and resolves with everything answered to it. */
  send(input: Omit<UserInput, 'input_id'> & { input_id?: string }, audio?: Uint8Array, timeoutMs = 30_000): Promise<TurnResult> {
    if (this.#pending) throw new Error('a turn is already in flight on this socket');
    const input_id = input.input_id ?? this.#newId();
    const full: UserInput = { ...input, input_id };
    // A closed socket would swallow the frame and leave the turn waiting for its timeout: say at once that it is closed.
    if (this.#socket.readyState !== OPEN) {
      const code = this.closeInfo?.code ?? 1006;
      return Promise.resolve({ input_id, outputs: [], forging: [], modifiers: [], error: `connection closed (${code})`, errorCode: null, firstOutputMs: -1, lastOutputMs: -1 });
    }
    return new Promise((resolve) => {
      const result: TurnResult = { input_id, outputs: [], forging: [], modifiers: [], error: null, errorCode: null, firstOutputMs: -1, lastOutputMs: -1 };
      const p: Pending = {
        input_id, sentAt: this.#clock.now(), result, resolve,
        timer: this.#clock.after(timeoutMs, () => {
          if (this.#pending === p) this.#pending = null;
          resolve({ ...result, error: result.error ?? `no answer within ${timeoutMs} ms` });
        }),
      };
      this.#pending = p;
      this.#socket.send(encodeFrame({ type: 'USER_INPUT', input: full, ...(audio && audio.length ? { audio } : {}) }));
    });
  }

  /**
   * Hands the server a fresh access token of the same user (after a refresh), so that this socket stays open past the
   * expiry of the token it was opened with (the server closes it with 4001 then). A refusal comes as an ERROR_MESSAGE.
   */
  sendAccessToken(accessToken: string): void {
    this.#socket.send(encodeFrame({ type: 'ACCESS_TOKEN', accessToken }));
  }

  /** Sends raw bytes (fuzzing, malformed frames). */
  sendRaw(bytes: Uint8Array | string): void {
    this.#socket.send(bytes);
  }

  close(code = 1000): Promise<void> {
    return new Promise((resolve) => {
      if (this.#socket.readyState === CLOSED) return resolve();
      this.#socket.addEventListener('close', () => resolve());
      this.#socket.close(code);
    });
  }
}
