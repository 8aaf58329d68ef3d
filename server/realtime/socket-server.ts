// WebSocket /ws (game spec §7): binary frames through the engine codec; a decoded USER_INPUT goes to the turn
// pipeline (server/game/turn-pipeline.ts), which sends its frames back through `send`. Auth on upgrade (?token=), Origin checked,
// bad frames answered with ERROR_MESSAGE (the socket stays open), a client over the message rate closed with 1008,
// ping every WS_PING_MS with termination on a missed pong, slow consumers dropped.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { decodeClientFrame, encodeFrame } from '../../engine/protocol/codec.js';
import type { ServerFrame } from '../../engine/protocol/frames.js';
import type { Config } from '../config.js';
import type { TurnPipeline } from '../game/turn-pipeline.js';
import type { AuthUser } from '../http/app.js';
import { hostCheck, MISDIRECTED_MESSAGE } from '../http/host-check.js';
import type { Logger } from '../log.js';
import type { AudioInput } from '../voice/transcriber.js';
import type { GuardedSocket, SocketGuard } from './socket-guard.js';

export type RealtimeDeps = {
  config: Config;
  log: Logger;
  authenticate: (token: string) => Promise<AuthUser | null>;
  /** Plays each decoded USER_INPUT and sends its frames back through this transport. */
  turns: TurnPipeline;
  /** Resolves when no turn is in flight (graceful shutdown). */
  idle: () => Promise<void>;
  /** Per-user socket caps and rates, token expiry and ACCESS_TOKEN refresh (socket-guard.ts). */
  guard?: SocketGuard;
};

/**
 * One open socket. Kept small (#12: memory per idle socket): the message rate is a fixed window counted in place
 * (windowStart, messages) rather than a RateLimiter and its Map per socket.
 */
type Client = { ws: WebSocket; user: AuthUser; alive: boolean; windowStart: number; messages: number; busy: number; guarded: GuardedSocket | null };

/** The socket's own message rate: WS_RATE_LIMIT messages per 10 s window. */
const MESSAGE_WINDOW_MS = 10_000;
function allowMessage(c: Client, limit: number, now: number): boolean {
  if (now - c.windowStart >= MESSAGE_WINDOW_MS) {
    c.windowStart = now;
    c.messages = 0;
  }
  return ++c.messages <= limit;
}

export type Realtime = {
  clients(): number;
  closeUser(userId: string, reason: string): void;
  close(): Promise<void>;
};

function reject(socket: Duplex, status: number, text: string): void {
  const [code, phrase] = status === 401 ? ['unauthorized', 'Unauthorized'] : status === 429 ? ['rate_limited', 'Too Many Requests']
    : status === 421 ? ['misdirected_request', 'Misdirected Request'] : ['forbidden', 'Forbidden'];
  const body = JSON.stringify({ error: { code, message: text } });
  socket.write(`HTTP/1.1 ${status} ${phrase}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  socket.destroy();
}

function toBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data);
  return data instanceof ArrayBuffer ? new Uint8Array(data) : data;
}

export function attachRealtime(server: Server, deps: RealtimeDeps): Realtime {
  const { config, log } = deps;
  // Frames a little over the cap still reach us and get a clear ERROR_MESSAGE; far larger ones are cut off by ws.
  const wss = new WebSocketServer({ noServer: true, maxPayload: config.WS_MAX_FRAME_BYTES * 4, perMessageDeflate: false });
  const clients = new Set<Client>();
  let closing = false;
  const hostAllowed = hostCheck(config);

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!hostAllowed(req.headers.host)) return reject(socket, 421, MISDIRECTED_MESSAGE);
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/ws') return reject(socket, 403, 'No WebSocket endpoint here: use /ws.');
    if (closing) return reject(socket, 403, 'The server is shutting down.');
    const origin = req.headers.origin;
    if (origin && !config.ALLOWED_ORIGINS.includes(origin) && !sameOrigin(origin, req.headers.host)) return reject(socket, 403, `Origin ${origin} is not allowed.`);
    const token = url.searchParams.get('token');
    if (!token) return reject(socket, 401, 'Missing access token: connect to /ws?token=<access token>.');
    deps.authenticate(token).then((user) => {
      if (!user) return reject(socket, 401, 'Invalid or expired access token.');
      if (deps.guard && !deps.guard.mayConnect(user.id)) return reject(socket, 429, 'Too many new connections for this account: wait a minute.');
      wss.handleUpgrade(req, socket, head, (ws) => onConnection(ws, user, token));
    }, (err: unknown) => {
      log.error({ err }, 'authentication failed during upgrade');
      reject(socket, 401, 'Invalid or expired access token.');
    });
  });

  const send = (c: Client, frame: ServerFrame): boolean => {
    if (c.ws.readyState !== c.ws.OPEN) return false;
    if (c.ws.bufferedAmount > config.WS_MAX_BUFFERED_BYTES) {
      log.warn({ user: c.user.id, buffered: c.ws.bufferedAmount }, 'slow consumer dropped');
      c.ws.terminate();
      return false;
    }
    c.ws.send(encodeFrame(frame));
    return true;
  };

  function onConnection(ws: WebSocket, user: AuthUser, token: string): void {
    // Every field set here, in one shape: a field added later would move the object's properties out of line.
    const c: Client = { ws, user, alive: true, windowStart: 0, messages: 0, busy: 0, guarded: deps.guard?.admit(ws, user.id, token) ?? null };
    clients.add(c);
    ws.on('pong', () => (c.alive = true));
    ws.on('close', () => {
      clients.delete(c);
      if (c.guarded) deps.guard?.release(c.guarded);
    });
    ws.on('error', (err) => log.warn({ err, user: user.id }, 'socket error'));
    ws.on('message', (data: RawData, isBinary: boolean) => {
      if (!allowMessage(c, config.WS_RATE_LIMIT, Date.now())) {
        ws.close(1008, 'Too many messages: slow down.');
        return;
      }
      if (c.guarded && !deps.guard?.allowMessage(c.guarded)) return;
      const t0 = performance.now();
      // Text frames are decoded as bytes too: the codec then explains what is wrong with them.
      const bytes = toBytes(data);
      void isBinary;
      const decoded = decodeClientFrame(bytes, { maxBytes: config.WS_MAX_FRAME_BYTES });
      if (!decoded.ok) {
        send(c, { type: 'ERROR_MESSAGE', message: decoded.error.message });
        return;
      }
      if (decoded.frame.type === 'ACCESS_TOKEN') {
        const refuse = (message: string): void => void send(c, { type: 'ERROR_MESSAGE', message });
        if (c.guarded && deps.guard) void deps.guard.refresh(c.guarded, decoded.frame.accessToken, refuse);
        else refuse('ACCESS_TOKEN is not needed here: this server does not close sockets when their token expires.');
        return;
      }
      const { input, audio } = decoded.frame;
      const audioIn: AudioInput | null = audio
        ? {
            bytes: audio, format: input.audio_format ?? 'mp3',
            ...(input.sample_rate ? { sample_rate: input.sample_rate } : {}),
            ...(input.channels ? { channels: input.channels } : {}),
            ...(input.bits_per_sample ? { bits_per_sample: input.bits_per_sample } : {}),
          }
        : null;
      c.busy++;
      const decodeMs = Math.round((performance.now() - t0) * 100) / 100;
      void deps.turns.run({ userId: user.id, input, audio: audioIn, receivedAt: t0, decodeMs }, (f) => send(c, f)).finally(() => c.busy--);
    });
  }

  const ping = setInterval(() => {
    for (const c of clients) {
      if (!c.alive) {
        c.ws.terminate();
        clients.delete(c);
        continue;
      }
      c.alive = false;
      c.ws.ping();
    }
  }, config.WS_PING_MS);
  ping.unref();

  return {
    clients: () => clients.size,
    closeUser(userId, reason) {
      for (const c of clients) if (c.user.id === userId) c.ws.close(1008, reason);
    },
    async close() {
      closing = true;
      clearInterval(ping);
      deps.guard?.close();
      // Turns in flight finish (and are persisted) before their sockets close.
      await deps.idle();
      for (const c of clients) c.ws.close(1001, 'Server shutting down');
      await new Promise<void>((r) => wss.close(() => r()));
    },
  };
}

/**
 * The web app this server serves connects from its own origin, whatever address it is reached at (a LAN IP, a
 * proxy's name): an Origin naming the Host it was sent to is allowed. Others need ALLOWED_ORIGINS.
 */
export function sameOrigin(origin: string, host: string | undefined): boolean {
  if (!host) return false;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}
