// Boots the real server (every module, real database) on an ephemeral port for cross-folder tests: PGlite in a fresh
// temp directory unless env gives DATABASE_URL. Log lines are captured (and printed too when LOG_TESTS=1).
//
//   const srv = await startTestServer({ EMAIL_CONFIRMATION: 'true' });
//   ... fetch(`${srv.url}/healthz`) ...
//   await srv.close();
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../../server/config.js';
import type { Services } from '../../server/http/app.js';
import { createLogger } from '../../server/log.js';
import { startServer } from '../../server/main.js';

export type TestServer = {
  /** http://127.0.0.1:PORT */
  url: string;
  config: Config;
  services: Services;
  app: FastifyInstance;
  /** Every log line written so far (JSON text, one per entry). */
  logs: string[];
  close(): Promise<void>;
};

// In-process test servers are text-only unless a test asks for voice (VOICE=on): faster, and eSpeak's worker thread
// does not start inside the test runner's workers. tests/ws-voice.test.ts runs a real server process with voice.
process.env.VOICE ??= 'off';

export const DEV_ORIGINS = 'http://localhost:8787,http://127.0.0.1:8787,http://localhost:5173';

export async function startTestServer(env: Record<string, string | undefined> = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'looptale-test-'));
  const config = loadConfig({
    PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, NODE_ENV: 'test', LOG_LEVEL: 'info', SEED_STORIES: 'false',
    // The Vite dev server's origin, as `npm run dev` allows it (tests sign in with redirects to it).
    ALLOWED_ORIGINS: DEV_ORIGINS, ...env,
  });
  const logs: string[] = [];
  const echo = process.env.LOG_TESTS === '1';
  const log = createLogger(config.LOG_LEVEL, {
    write(line: string) {
      logs.push(line);
      if (echo) process.stderr.write(line);
    },
  });
  let server;
  try {
    server = await startServer(config, log);
  } catch (e) {
    rmSync(dataDir, { recursive: true, force: true });
    throw e;
  }
  const running = server;
  let closed: Promise<void> | null = null;
  return {
    url: running.url, config, services: running.services, app: running.app, logs,
    close() {
      closed ??= running.close().finally(() => rmSync(dataDir, { recursive: true, force: true }));
      return closed;
    },
  };
}
