// Starting and stopping one server process: database, HTTP API, WebSocket /ws. SIGTERM stops accepting, lets turns in
// flight finish, then closes the database cleanly.
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import type { Db } from './db/db.js';
import { openDb } from './db/open.js';
import { tightenTree } from './db/private-files.js';
import { buildApp, type Services } from './http/app.js';
import type { Logger } from './log.js';
import { MODULES } from './modules.js';
import { SocketGuard } from './realtime/socket-guard.js';
import { attachRealtime, type Realtime } from './realtime/socket-server.js';

declare module './http/app.js' {
  interface Services {
    realtime: Realtime;
  }
}

export type RunningServer = {
  url: string;
  port: number;
  app: FastifyInstance;
  services: Services;
  close(): Promise<void>;
};

export type StartOptions = {
  /**
   * The database, already opening (`looptale serve` starts opening it before it loads the rest of the server, so that
   * PGlite's start in its worker thread overlaps the module loading on the main thread). Default: opened here.
   */
  db?: Promise<Db>;
};

export async function startServer(config: Config, log: Logger, opts: StartOptions = {}): Promise<RunningServer> {
  const db = await (opts.db ?? openDb(config));
  // PGlite's opening tightened DATA_DIR already; with PostgreSQL it still holds media and their rendered variants.
  if (db.kind !== 'pglite' && existsSync(config.DATA_DIR)) tightenTree(resolve(config.DATA_DIR));
  // The modules fill in the rest of the container (stories, game, auth, play...) as they start.
  const services = {
    config, log, db, onClose: [],
    authenticate: () => Promise.resolve(null),
  } as unknown as Services;
  let app: FastifyInstance;
  try {
    app = await buildApp(services, MODULES);
    await app.listen({ port: config.PORT, host: config.HOST });
  } catch (e) {
    for (const f of [...services.onClose].reverse()) await f();
    await db.close();
    throw e;
  }
  const realtime = attachRealtime(app.server, {
    config, log: log.child({ component: 'ws' }), turns: services.turns, idle: () => services.play.idle(),
    authenticate: (token) => services.authenticate(token),
    guard: new SocketGuard({ config, log: log.child({ component: 'ws' }), verify: async (token) => (await services.auth?.verify(token)) ?? null }),
  });
  services.realtime = realtime;
  // A user's sockets close when their session ends (sign-out, password change, refresh-token reuse).
  const unsubscribe = services.auth?.onSessionEnd((userId) => realtime.closeUser(userId, 'Your session ended: sign in again.'));
  if (unsubscribe) services.onClose.push(unsubscribe);
  const port = (app.server.address() as AddressInfo).port;
  const url = `http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${port}`;
  let closing: Promise<void> | null = null;
  return {
    url, port, app, services,
    close() {
      closing ??= (async () => {
        // Stop accepting, let turns in flight finish and persist, then close sockets, HTTP and the database.
        await realtime.close();
        await app.close();
        for (const f of [...services.onClose].reverse()) await f();
        await db.close();
      })();
      return closing;
    },
  };
}
