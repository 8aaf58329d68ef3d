// The game server's client in Node: the browser-safe API client and socket of engine/client/api/, given Node's fetch,
// the `ws` package, crypto.randomUUID and a real clock. Used by `looptale play`, `replay`, `load`, the benches and
// the cross-folder tests; the web app builds the same classes from the browser's globals (web/src/api/).
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import type { Clock } from '../../engine/client/clock.js';
import { Api as BaseApi, ApiError } from '../../engine/client/api/http.js';
import { GameSocket as BaseSocket, socketUrl } from '../../engine/client/api/socket.js';

export { ApiError } from '../../engine/client/api/http.js';
export type { Launch, Session } from '../../engine/client/api/http.js';
export type { AudioChunk, TurnResult } from '../../engine/client/api/socket.js';

/** Real time: performance.now() and setTimeout. */
export const nodeClock: Clock = {
  now: () => performance.now(),
  after(ms, fire) {
    const t = setTimeout(fire, ms);
    return { cancel: () => clearTimeout(t) };
  },
};

export const newId = (): string => randomUUID();

/** The HTTP API with Node's fetch. */
export class Api extends BaseApi {
  /** `timeoutMs`: abort a request that has no answer by then (the load harness; none by default). */
  constructor(baseUrl: string, token: string | null = null, opts: { timeoutMs?: number } = {}) {
    super(baseUrl, token, { fetch: (url, init) => fetch(url, opts.timeoutMs ? { ...init, signal: AbortSignal.timeout(opts.timeoutMs) } : init) });
  }
}

/** One realtime connection over the `ws` package; `raw` is the ws socket (tests kill it, benches watch it). */
export class GameSocket extends BaseSocket {
  readonly raw: WebSocket;

  private constructor(ws: WebSocket) {
    super(ws, { clock: nodeClock, newId });
    this.raw = ws;
  }

  static connect(baseUrl: string, token: string, opts: { origin?: string; timeoutMs?: number } = {}): Promise<GameSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(socketUrl(baseUrl, token), { ...(opts.origin ? { origin: opts.origin } : {}), handshakeTimeout: opts.timeoutMs ?? 10_000 });
      ws.once('open', () => resolve(new GameSocket(ws)));
      // A refused upgrade says why (status and body), which the browser's WebSocket cannot.
      ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => reject(new ApiError(res.statusCode ?? 0, `WebSocket refused (${res.statusCode}): ${body}`)));
      });
      ws.once('error', (e) => reject(new ApiError(0, `Cannot connect to ${baseUrl}/ws: ${e.message}`)));
    });
  }
}
