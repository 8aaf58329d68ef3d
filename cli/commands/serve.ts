// `looptale serve` (and `npm start`): one server process on PORT (default 8787). Only what opening the database needs is
// imported up front; the rest of the server loads while it opens.
import type { Command } from 'commander';
import { ConfigError, loadConfig } from '../../server/config.js';
import { DataDirLockedError } from '../../server/db/dir-lock.js';
import { PRIVATE_UMASK } from '../../server/db/private-files.js';
import { openDb } from '../../server/db/open.js';
import { createLogger } from '../../server/log.js';

export function register(program: Command): void {
  program
    .command('serve')
    .description('run the game server: HTTP API, WebSocket /ws (configuration from environment variables)')
    .option('--port <n>', 'port (env PORT, default 8787)')
    .option('--host <host>', 'address to bind (env HOST, default 127.0.0.1)')
    .option('--data-dir <dir>', 'embedded database directory (env DATA_DIR, default ./data)')
    .option('--database-url <url>', 'PostgreSQL instead of the embedded database (env DATABASE_URL)')
    .addHelpText('after', `
Examples:
  looptale serve                                  # PGlite in ./data, http://localhost:8787
  PORT=9000 looptale serve --data-dir /var/lib/looptale
  DATABASE_URL=postgres://user:pw@db/looptale looptale serve   # several processes may share it`)
    .action(async (o: { port?: string; host?: string; dataDir?: string; databaseUrl?: string }) => {
      // What the server writes (database, media, keys) is readable by its own user only, whatever umask it was given.
      process.umask(PRIVATE_UMASK);
      let config;
      try {
        config = loadConfig(process.env, { PORT: o.port, HOST: o.host, DATA_DIR: o.dataDir, DATABASE_URL: o.databaseUrl });
      } catch (e) {
        if (e instanceof ConfigError) {
          process.stderr.write(`looptale: ${e.message}\n`);
          process.exit(2);
        }
        throw e;
      }
      const log = createLogger(config.LOG_LEVEL);
      let server;
      try {
        // The database opens (PGlite: in its worker thread) while the rest of the server loads: a restart serves sooner.
        const db = openDb(config);
        db.catch(() => undefined); // handled below, through startServer
        const { startServer } = await import('../../server/main.js');
        server = await startServer(config, log, { db });
      } catch (e) {
        if (e instanceof DataDirLockedError) {
          process.stderr.write(`looptale: ${e.message}\n`);
          process.exit(2);
        }
        throw e;
      }
      log.info({ url: server.url, database: server.services.db.kind }, `Looptale is serving on ${server.url}`);
      const stop = (signal: string): void => {
        log.info({ signal }, 'stopping: finishing turns in flight');
        server.close().then(() => process.exit(0), (err: unknown) => {
          log.error({ err }, 'error while stopping');
          process.exit(1);
        });
      };
      process.once('SIGTERM', () => stop('SIGTERM'));
      process.once('SIGINT', () => stop('SIGINT'));
    });
}
