// The realtime link hands refreshed access tokens to the server over its open socket (#14 item 10: the server closes
// a socket when the token it was opened with expires, unless the client sends a fresh one as ACCESS_TOKEN).
import { describe, expect, it } from 'vitest';
import { decodeClientFrame } from '../../protocol/codec.js';
import { SimulatedClock } from '../timers.js';
import { Link, type TokenRefreshes } from './link.js';
import { GameSocket, type SocketLike } from './socket.js';

type Listener = (ev: never) => void;

class MemorySocket implements SocketLike {
  binaryType = 'arraybuffer';
  readyState = 1;
  sent: Uint8Array[] = [];
  #listeners = new Map<string, Listener[]>();
  addEventListener(type: string, listener: Listener): void {
    this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener]);
  }
  send(data: Uint8Array | string): void {
    if (typeof data !== 'string') this.sent.push(data);
  }
  close(code = 1000): void {
    this.readyState = 3;
    for (const l of this.#listeners.get('close') ?? []) (l as (e: unknown) => void)({ code, reason: '' });
  }
}

/** What the web app's session gives the link: supabase-js's TOKEN_REFRESHED events. */
class Refreshes implements TokenRefreshes {
  readonly listeners = new Set<(token: string) => void>();
  subscribe(listener: (token: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  emit(token: string): void {
    for (const l of this.listeners) l(token);
  }
}

const tokensSent = (ws: MemorySocket): string[] =>
  ws.sent.map((b) => decodeClientFrame(b)).flatMap((r) => (r.ok && r.frame.type === 'ACCESS_TOKEN' ? [r.frame.accessToken] : []));

describe('Link: token refreshes', () => {
  it('sends each refreshed token over the open socket (ACCESS_TOKEN), to the new socket after a reconnect, and stops listening when closed', async () => {
    const clock = new SimulatedClock();
    const sockets: MemorySocket[] = [];
    const connect = (): Promise<GameSocket> => {
      const ws = new MemorySocket();
      sockets.push(ws);
      return Promise.resolve(new GameSocket(ws, { clock, newId: () => 'id' }));
    };
    const refreshes = new Refreshes();
    const link = await Link.open(connect, clock, { tokenRefreshes: refreshes });
    expect(link.status).toBe('connected');
    refreshes.emit('token-2');
    expect(tokensSent(sockets[0]!)).toEqual(['token-2']);

    // Dropped: a refresh while no socket is open is not sent anywhere (the next socket opens with the current token).
    link.dropSocket();
    refreshes.emit('token-3');
    expect(tokensSent(sockets[0]!)).toEqual(['token-2']);
    clock.advance(5_000);
    await Promise.resolve();
    await Promise.resolve();
    expect(sockets).toHaveLength(2);
    expect(link.status).toBe('connected');
    refreshes.emit('token-4');
    expect(tokensSent(sockets[1]!)).toEqual(['token-4']);

    await link.close();
    expect(refreshes.listeners.size).toBe(0);
  });
});
