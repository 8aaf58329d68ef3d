// JSON over HTTP for the load generator, from a chosen loopback source address (so per-address limits of the
// server see several clients, as they would in production) and always with a timeout.
import http from 'node:http';

export class HttpFailure extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

export type JsonRequest = {
  method: string;
  url: string;
  body?: unknown;
  token?: string | null;
  /** A loopback source address such as 127.0.0.12 (Linux routes all of 127.0.0.0/8 to lo). */
  localAddress?: string;
  timeoutMs?: number;
};

const agents = new Map<string, http.Agent>();

/** One keep-alive agent per source address, so pooled connections keep their address. */
function agentFor(localAddress: string | undefined): http.Agent {
  const key = localAddress ?? '';
  let a = agents.get(key);
  if (!a) {
    a = new http.Agent({ keepAlive: true, maxSockets: 64, ...(localAddress ? { localAddress } : {}) });
    agents.set(key, a);
  }
  return a;
}

/** Closes every pooled connection (end of a bench). */
export function closeAgents(): void {
  for (const a of agents.values()) a.destroy();
  agents.clear();
}

export function requestJson<T>(r: JsonRequest): Promise<T> {
  const payload = r.body === undefined ? undefined : JSON.stringify(r.body);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (payload !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  if (r.token) headers.authorization = `Bearer ${r.token}`;
  const timeoutMs = r.timeoutMs ?? 15_000;
  return new Promise<T>((resolve, reject) => {
    const req = http.request(r.url, { method: r.method, headers, agent: agentFor(r.localAddress) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString('utf8');
        const status = res.statusCode ?? 0;
        if (status < 200 || status >= 300) return reject(new HttpFailure(status, `${r.method} ${new URL(r.url).pathname}: HTTP ${status} ${text.slice(0, 200)}`));
        try {
          resolve((text ? JSON.parse(text) : null) as T);
        } catch {
          reject(new HttpFailure(status, `${r.method} ${new URL(r.url).pathname}: not JSON: ${text.slice(0, 200)}`));
        }
      });
    });
    const timer = setTimeout(() => req.destroy(new Error(`${r.method} ${r.url}: no answer within ${timeoutMs} ms`)), timeoutMs);
    req.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    req.end(payload);
  });
}
