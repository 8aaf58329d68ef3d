// a server that created its own DATA_DIR left it 0755 with ~970 files 0666 (the modes
// stored in server/db/pglite-empty.tar.gz), and the write-ahead log held auth.jwt_secret: any local user could read the
// secret and sign tokens. Now everything under DATA_DIR is 0700 (directories) / 0600 (files) whatever the umask, files
// left looser by an older version are tightened at start, and the embedded database never holds the signing secret
// (it lives in DATA_DIR/jwt-secret, 0600; one an older version kept in the database is dropped and replaced).
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from '../server/db/pglite.js';

const BIN = join(import.meta.dirname, '../bin/looptale.js');
const base = mkdtempSync(join(tmpdir(), 'looptale-modes-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

type Served = { url: string; child: ChildProcess; output: string[]; stop(): Promise<void> };

/**
 * `looptale serve` under `umask 000`, from the sources, unpacking the shipped empty database (no test template), with
 * the fixture stories seeded so that media files are written too.
 */
function serve(dataDir: string): Promise<Served> {
  const env: Record<string, string> = { ...process.env as Record<string, string>, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', NODE_ENV: 'test', DATA_DIR: dataDir, LOOPTALE_BUNDLE: '0', SEED_STORIES: 'true', VOICE: 'off' };
  delete env.PGLITE_TEMPLATE_DIR;
  delete env.DATABASE_URL;
  const child = spawn('/bin/sh', ['-c', 'umask 000 && exec "$0" "$@"', process.execPath, BIN, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start:\n${output.join('')}`));
    }, 120_000);
    child.stderr.on('data', (d: Buffer) => output.push(d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      output.push(d.toString());
      const m = /"url":"(http:\/\/[^"]+)"/.exec(d.toString());
      if (m?.[1]) {
        clearTimeout(timer);
        resolve({ url: m[1], child, output, stop: async () => { child.kill('SIGTERM'); await exited; } });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}):\n${output.join('')}`));
    });
  });
}

/** Every path under `dir` (itself included) whose permission bits are not 0700 (directories) or 0600 (files). */
function loose(dir: string): string[] {
  const out: string[] = [];
  const walk = (p: string): void => {
    const st = lstatSync(p);
    if (st.isSymbolicLink()) return;
    const want = st.isDirectory() ? 0o700 : 0o600;
    if ((st.mode & 0o777) !== want) out.push(`${p} ${(st.mode & 0o777).toString(8)}`);
    if (st.isDirectory()) for (const e of readdirSync(p)) walk(join(p, e));
  };
  walk(dir);
  return out;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

async function signUp(url: string, email: string): Promise<void> {
  const res = await fetch(`${url}/auth/v1/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'a long enough password 1' }) });
  expect(res.status).toBe(200);
}

describe('defect 12: what the server writes under DATA_DIR is private to its user', () => {
  const dataDir = join(base, 'fresh'); // the server creates it

  it('a first start under umask 000 makes only 0700 directories and 0600 files, and the database holds no signing secret', async () => {
    const srv = await serve(dataDir);
    try {
      await signUp(srv.url, 'modes@example.com'); // a session row and WAL records
      expect(existsSync(join(dataDir, 'media'))).toBe(true);
    } finally {
      await srv.stop();
    }
    expect(loose(dataDir)).toEqual([]);
    const secret = readFileSync(join(dataDir, 'jwt-secret'), 'utf8').trim();
    expect(secret.length).toBeGreaterThanOrEqual(64);
    // Not in any file of the database (tables, WAL): a copy of DATA_DIR/pglite does not give it away.
    const needle = Buffer.from(secret);
    expect(filesUnder(join(dataDir, 'pglite')).filter((f) => readFileSync(f).includes(needle))).toEqual([]);
  });

  it('tightens files an older version left 0666 in 0777 directories, and drops a signing secret kept in the database', async () => {
    // What an older version left: a secret in server_settings, and the archive's loose modes.
    const old = await openPglite(dataDir, { vacuum: false });
    await old.query("INSERT INTO looptale_private.server_settings (key, value) VALUES ('auth.jwt_secret', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value", ['x'.repeat(64)]);
    await old.close();
    const walk = (p: string): void => {
      const st = lstatSync(p);
      chmodSync(p, st.isDirectory() ? 0o777 : 0o666);
      if (st.isDirectory()) for (const e of readdirSync(p)) walk(join(p, e));
    };
    walk(dataDir);
    expect(loose(dataDir).length).toBeGreaterThan(900);

    const srv = await serve(dataDir);
    let rows: unknown[];
    try {
      await signUp(srv.url, 'modes2@example.com');
      const db = srv.output.join('');
      expect(db).toContain('signing secret');
    } finally {
      await srv.stop();
    }
    expect(loose(dataDir)).toEqual([]);
    const check = await openPglite(dataDir, { vacuum: false });
    try {
      rows = (await check.query("SELECT key FROM looptale_private.server_settings WHERE key = 'auth.jwt_secret'")).rows;
    } finally {
      await check.close();
    }
    expect(rows).toEqual([]);
  });
});
