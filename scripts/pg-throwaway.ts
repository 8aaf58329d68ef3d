// A throwaway PostgreSQL 15 cluster for tests and local runs: a new data directory in the temp folder, a free port,
// no password (trust on 127.0.0.1), fsync off. Started as a non-root user: PostgreSQL refuses to run as root, so
// under root the `postgres` system user runs it. `stop()` shuts it down and removes the directory.
//
//   npx tsx scripts/pg-throwaway.ts        prints the URL and stays up until Ctrl-C
import { execFile, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';

export const PG_BIN_DIR = process.env.PG_BIN_DIR ?? '/usr/lib/postgresql/15/bin';
const SUPERUSER = 'postgres';

export type ThrowawayPostgres = {
  /** postgresql://postgres@127.0.0.1:PORT/looptale */
  url: string;
  port: number;
  dataDir: string;
  stop(): Promise<void>;
};

export class PostgresUnavailableError extends Error {}

function isRoot(): boolean {
  return process.getuid?.() === 0;
}

/** The command line that runs a binary as the non-root user when we are root. */
function asOwner(bin: string, args: string[]): [string, string[]] {
  const path = join(PG_BIN_DIR, bin);
  if (!isRoot()) return [path, args];
  return ['runuser', ['-u', SUPERUSER, '--', path, ...args]];
}

function run(bin: string, args: string[], timeoutMs = 60_000): Promise<void> {
  const [cmd, argv] = asOwner(bin, args);
  return new Promise((resolve, reject) => {
    execFile(cmd, argv, { timeout: timeoutMs, cwd: tmpdir() }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${bin} failed: ${error.message}\n${stdout}${stderr}`.trim()));
      else resolve();
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function checkBinaries(): void {
  const missing = ['initdb', 'pg_ctl', 'postgres'].filter((b) => !existsSync(join(PG_BIN_DIR, b)));
  if (missing.length > 0) {
    throw new PostgresUnavailableError(
      `PostgreSQL 15 binaries not found in ${PG_BIN_DIR} (missing: ${missing.join(', ')}). Install them ` +
      '(Debian/Ubuntu: apt-get install postgresql-15) or set PG_BIN_DIR to the folder holding initdb and pg_ctl.',
    );
  }
  if (isRoot() && spawnSync('id', ['-u', SUPERUSER]).status !== 0) {
    throw new PostgresUnavailableError(`Running as root and there is no '${SUPERUSER}' system user to run PostgreSQL as.`);
  }
}

async function waitForConnections(url: string, deadline: number): Promise<void> {
  let last: unknown;
  while (Date.now() < deadline) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      return;
    } catch (e) {
      last = e;
      await client.end().catch(() => undefined);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`PostgreSQL did not accept connections in time: ${last instanceof Error ? last.message : String(last)}`);
}

/** Starts a new cluster and creates the database `looptale` in it. */
export async function startThrowawayPostgres(opts: { database?: string } = {}): Promise<ThrowawayPostgres> {
  checkBinaries();
  const database = opts.database ?? 'looptale';
  const dataDir = mkdtempSync(join(tmpdir(), 'looptale-pg-'));
  const cluster = join(dataDir, 'data');
  const log = join(dataDir, 'server.log');
  if (isRoot()) {
    const uid = Number(spawnSync('id', ['-u', SUPERUSER], { encoding: 'utf8' }).stdout.trim());
    const gid = Number(spawnSync('id', ['-g', SUPERUSER], { encoding: 'utf8' }).stdout.trim());
    chownSync(dataDir, uid, gid);
  }
  let started = false;
  const stop = async (): Promise<void> => {
    if (started) {
      started = false;
      await run('pg_ctl', ['stop', '-D', cluster, '-m', 'fast', '-w', '-s']).catch(() => undefined);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await run('initdb', ['-D', cluster, '-U', SUPERUSER, '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions']);
    const port = await freePort();
    const settings = [
      `-p ${port}`, '-c listen_addresses=127.0.0.1', `-c unix_socket_directories=${dataDir}`, '-c fsync=off',
      '-c synchronous_commit=off', '-c full_page_writes=off', '-c max_connections=200',
    ].join(' ');
    try {
      await run('pg_ctl', ['start', '-D', cluster, '-l', log, '-w', '-t', '60', '-s', '-o', settings], 90_000);
    } catch (e) {
      const tail = existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-20).join('\n') : '';
      throw new Error(`${(e as Error).message}\n${tail}`, { cause: e });
    }
    started = true;
    const admin = `postgresql://${SUPERUSER}@127.0.0.1:${port}/postgres`;
    await waitForConnections(admin, Date.now() + 30_000);
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE ${pg.escapeIdentifier(database)}`);
    } finally {
      await client.end();
    }
    return { url: `postgresql://${SUPERUSER}@127.0.0.1:${port}/${database}`, port, dataDir, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** Creates a new empty database on the server of `url` and returns its URL (one per test file keeps tests apart). */
export async function createDatabase(url: string, prefix = 'test'): Promise<string> {
  const name = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function cli(): Promise<void> {
  const pgInstance = await startThrowawayPostgres();
  console.log(pgInstance.url);
  console.error(`PostgreSQL is up (data in ${pgInstance.dataDir}). Press Ctrl-C to stop it and remove the data.`);
  let stopping = false;
  const shutdown = (): void => {
    if (stopping) return;
    stopping = true;
    void pgInstance.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  setInterval(() => undefined, 1 << 30);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  cli().catch((e: unknown) => {
    console.error(`pg-throwaway: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  });
}
