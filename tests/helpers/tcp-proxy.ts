// A TCP proxy in front of a test server, to break the network the way the real world does: cut every connection at
// once (a restart, a dropped Wi-Fi), or hold what the server sends for a while (a stalled server or link).
import { createConnection, createServer, type Socket } from 'node:net';

export type TcpProxy = {
  url: string;
  /** Destroys every open connection (both ends). */
  cutAll(): number;
  /** Holds server-to-client bytes for `ms` (new connections too), then lets them through. */
  hold(ms: number): void;
  close(): Promise<void>;
};

export async function startTcpProxy(target: string): Promise<TcpProxy> {
  const { hostname, port } = new URL(target);
  const pairs = new Set<{ client: Socket; server: Socket }>();
  let holdUntil = 0;
  const release = new Set<() => void>();

  const server = createServer((client) => {
    const upstream = createConnection({ host: hostname, port: Number(port) });
    const pair = { client, server: upstream };
    pairs.add(pair);
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      const wait = holdUntil - Date.now();
      if (wait <= 0) {
        client.write(chunk);
        return;
      }
      // Keep the order: pause the server side until the hold ends, then write this chunk first.
      upstream.pause();
      const go = (): void => {
        release.delete(go);
        client.write(chunk);
        upstream.resume();
      };
      release.add(go);
      setTimeout(go, wait);
    });
    const end = (): void => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const listenPort = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${listenPort}`,
    cutAll() {
      const n = pairs.size;
      for (const p of [...pairs]) {
        p.client.destroy();
        p.server.destroy();
      }
      pairs.clear();
      return n;
    },
    hold(ms) {
      holdUntil = Date.now() + ms;
    },
    async close() {
      for (const go of [...release]) go();
      for (const p of [...pairs]) {
        p.client.destroy();
        p.server.destroy();
      }
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
