// Operator-only routes (the dev outbox, /metrics without a token) answer loopback peers only. The peer is the TCP
// connection's address, never X-Forwarded-For; and a request that carries forwarding headers came through a proxy,
// so it is someone else's even when the proxy runs on this machine.
import type { FastifyRequest } from 'fastify';

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.replace(/^::ffff:/i, '');
  return a === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a);
}

const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip', 'x-forwarded-host', 'cf-connecting-ip', 'true-client-ip'];

/** Whether the request comes straight from this machine (a loopback peer, not relayed by a proxy). */
export function isLocalRequest(req: FastifyRequest): boolean {
  if (!isLoopbackAddress(req.socket.remoteAddress)) return false;
  return !FORWARDING_HEADERS.some((h) => req.headers[h] !== undefined);
}
