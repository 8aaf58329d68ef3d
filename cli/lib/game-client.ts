// A client of the game server: HTTP API calls with a bearer token, and the realtime protocol over /ws with the
// engine codec. Used by `looptale play`, `replay`, `load` and the cross-folder tests.
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { decodeServerFrame, encodeFrame } from '../../engine/protocol/codec.js';
import type { AudioAnswerHeader } from '../../engine/protocol/frames.js';
import type { UserInput } from '../../engine/protocol/user-input.js';
import type { EquipmentForging, GameOutput } from '../../engine/schema/game-output.js';
import type { CardModifierNotification } from '../../engine/schema/notification.js';

export class ApiError extends Error {
  constructor(readonly status: number, message: string, readonly code = '') {
    super(message);
  }
}

export type Session = { access_token: string; refresh_token: string; user: { id: string; email?: string } };

export class Api {
  constructor(readonly baseUrl: string, public token: string | null = null) {}

  async request<T>(method: string, path: string, body?: unknown, init: { form?: boolean } = {}): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    let payload: string | undefined;
    if (body !== undefined) {
      headers['content-type'] = init.form ? 'application/x-www-form-urlencoded' : 'application/json';
      payload = init.form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body);
    }
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}${path}`, { method, headers, ...(payload !== undefined ? { body: payload } : {}) });
    } catch (e) {
      throw new ApiError(0, `Cannot reach the server at ${this.baseUrl}: ${(e as Error).cause ? String((e as { cause: unknown }).cause) : (e as Error).message}`);
    }
    const text = await res.text();
    const isJson = (res.headers.get('content-type') ?? '').includes('json') && !(res.headers.get('content-type') ?? '').includes('ndjson');
    let json: unknown = null;
    if (text && isJson) {
      try {
        json = JSON.parse(text) as unknown;
      } catch {
        json = null;
      }
    }
    if (!res.ok) {
      const j = json as { error?: { message?: string; code?: string } | string; msg?: string; error_description?: string } | null;
      const message = typeof j?.error === 'object' ? j.error.message : j?.msg ?? j?.error_description ?? (typeof j?.error === 'string' ? j.error : text);
      throw new ApiError(res.status, message || `HTTP ${res.status}`, typeof j?.error === 'object' ? j.error.code ?? '' : '');
    }
    return (json ?? text) as T;
  }

  async signUp(email: string, password: string): Promise<Session> {
    const s = await this.request<Session>('POST', '/auth/v1/signup', { email, password });
    this.token = s.access_token;
    return s;
  }

  async signIn(email: string, password: string): Promise<Session> {
    const s = await this.request<Session>('POST', '/auth/v1/token?grant_type=password', { email, password });
    this.token = s.access_token;
    return s;
  }

  /** Signs in, or signs up when the account does not exist yet. */
  async signInOrUp(email: string, password: string): Promise<Session> {
    try {
      return await this.signIn(email, password);
    } catch (e) {
      if (e instanceof ApiError && e.status === 400) return this.signUp(email, password);
      throw e;
    }
  }
}

export type TurnResult = {
  input_id: string;
  outputs: GameOutput[];
  forging: EquipmentForging[];
  modifiers: CardModifierNotification[];
  error: string | null;
  /** Milliseconds from sending to the first GAME_OUTPUT, and to the last. */
  firstOutputMs: number;
  lastOutputMs: number;
};

export type AudioChunk = { header: AudioAnswerHeader; audio: Uint8Array; atMs: number };

type Pending = {
  input_id: string;
  sentAt: number;
  result: TurnResult;
  resolve: (r: TurnResult) => void;
  timer: NodeJS.Timeout;
};

/** One realtime connection. One turn at a time (the server serialises turns of a run anyway). */
export class GameSocket {
  #ws: WebSocket;
  #pending: Pending | null = null;
  readonly audio: AudioChunk[] = [];
  onAudio: ((chunk: AudioChunk) => void) | null = null;
  onUnsolicited: ((kind: string, payload: unknown) => void) | null = null;
  closeInfo: { code: number; reason: string } | null = null;

  private constructor(ws: WebSocket) {
    this.#ws = ws;
    ws.on('message', (data: Buffer) => this.#onMessage(data));
    ws.on('close', (code, reason) => {
      this.closeInfo = { code, reason: reason.toString() };
      const p = this.#pending;
      if (p) {
        clearTimeout(p.timer);
        this.#pending = null;
        p.resolve({ ...p.result, error: p.result.error ?? `connection closed (${code})` });
      }
    });
  }

  static connect(baseUrl: string, token: string, opts: { origin?: string; timeoutMs?: number } = {}): Promise<GameSocket> {
    const url = `${baseUrl.replace(/^http/, 'ws')}/ws?token=${encodeURIComponent(token)}`;
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { ...(opts.origin ? { origin: opts.origin } : {}), handshakeTimeout: opts.timeoutMs ?? 10_000 });
      ws.once('open', () => resolve(new GameSocket(ws)));
      ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => reject(new ApiError(res.statusCode ?? 0, `WebSocket refused (${res.statusCode}): ${body}`)));
      });
      ws.once('error', (e) => reject(new ApiError(0, `Cannot connect to ${baseUrl}/ws: ${e.message}`)));
    });
  }

  get raw(): WebSocket {
    return this.#ws;
  }

  #onMessage(data: Buffer): void {
    const now = performance.now();
    const r = decodeServerFrame(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    if (!r.ok) {
      this.onUnsolicited?.('bad_frame', r.error);
      return;
    }
    const f = r.frame;
    const p = this.#pending;
    switch (f.type) {
      case 'AUDIO_ANSWER': {
        const chunk = { header: f.header, audio: f.audio, atMs: now };
        this.audio.push(chunk);
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
        if (f.output.battle_state_next_phase !== 'ai_attack_selection') this.#settle(p, 30);
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
          this.#settle(p, 0);
        } else this.onUnsolicited?.('ERROR_MESSAGE', f.message);
    }
  }

  /** Resolves the pending turn after a short grace period for the frames that follow the output (forging...). */
  #settle(p: Pending, graceMs: number): void {
    clearTimeout(p.timer);
    p.timer = setTimeout(() => {
      if (this.#pending === p) this.#pending = null;
      p.resolve(p.result);
    }, graceMs);
  }

  send(input: Omit<UserInput, 'input_id'> & { input_id?: string }, audio?: Uint8Array, timeoutMs = 30_000): Promise<TurnResult> {
    if (this.#pending) throw new Error('a turn is already in flight on this socket');
    const input_id = input.input_id ?? randomUUID();
    const full = { ...input, input_id };
    return new Promise((resolve) => {
      const result: TurnResult = { input_id, outputs: [], forging: [], modifiers: [], error: null, firstOutputMs: -1, lastOutputMs: -1 };
      const p: Pending = {
        input_id, sentAt: performance.now(), result, resolve,
        timer: setTimeout(() => {
          if (this.#pending === p) this.#pending = null;
          resolve({ ...result, error: result.error ?? `no answer within ${timeoutMs} ms` });
        }, timeoutMs),
      };
      this.#pending = p;
      this.#ws.send(encodeFrame({ type: 'USER_INPUT', input: full, ...(audio && audio.length ? { audio } : {}) }));
    });
  }

  /** Sends raw bytes (fuzzing, malformed frames). */
  sendRaw(bytes: Uint8Array | string): void {
    this.#ws.send(bytes);
  }

  close(code = 1000): Promise<void> {
    return new Promise((resolve) => {
      if (this.#ws.readyState === WebSocket.CLOSED) return resolve();
      this.#ws.once('close', () => resolve());
      this.#ws.close(code);
    });
  }
}
