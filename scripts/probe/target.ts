// The server a probe attacks: `node <root>/bin/looptale.js serve` from any checkout (this one, or an older tree to
// show an attack worked there), started as `npm start` would on a fresh machine: it creates its own DATA_DIR (in a
// world-traversable folder, as a project folder is) under the usual umask 022, from the shipped empty database.
// Switches a default server has off are turned on only where a probe needs them: the dev outbox (to follow emailed
// links), voice (to send audio), the fixture stories, a web bundle (to have pages to frame), TRUST_PROXY (to claim
// HTTPS with X-Forwarded-Proto), and raised request rates (probes send many requests from one address).
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type Target = {
  url: string;
  /** The checkout the server runs from. */
  root: string;
  /** DATA_DIR: made by the server itself. */
  dataDir: string;
  /** The server's stdout and stderr so far (its request log). */
  output: string[];
  child: ChildProcess;
  stop(): Promise<void>;
};

/** Seconds a sign-in counts as fresh (REAUTHENTICATION_WINDOW_S): short, so that a probe can hold an old session. */
export const REAUTH_WINDOW_S = 3;

export async function startTarget(root: string, env: Record<string, string> = {}): Promise<Target> {
  const base = mkdtempSync(join(tmpdir(), 'looptale-probe-'));
  chmodSync(base, 0o755);
  const dataDir = join(base, 'data');
  const web = join(base, 'web');
  mkdirSync(web);
  writeFileSync(join(web, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
  const full: Record<string, string | undefined> = {
    ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', DATA_DIR: dataDir, LOOPTALE_BUNDLE: '0',
    DEV_OUTBOX: 'true', VOICE: 'on', SEED_STORIES: 'true', STORIES_DIR: join(root, 'fixtures/stories'), WEB_DIST: web,
    TRUST_PROXY: 'true', HTTP_RATE_LIMIT: '100000', AUTH_RATE_LIMIT_SCALE: '1000', REAUTHENTICATION_WINDOW_S: String(REAUTH_WINDOW_S),
    ...env,
  };
  // What a test run or the developer's shell may have set, which a default server does not have.
  for (const k of ['NODE_ENV', 'PGLITE_TEMPLATE_DIR', 'DATABASE_URL', 'ALLOWED_ORIGINS', 'ALLOWED_HOSTS', 'PUBLIC_URL', 'EMAIL_CONFIRMATION']) {
    if (!(k in env)) delete full[k];
  }
  const child = spawn('/bin/sh', ['-c', 'umask 022 && exec "$0" "$@"', process.execPath, join(root, 'bin/looptale.js'), 'serve'], {
    cwd: root, env: full, stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    // A server still busy with an attack's backlog (an older one decoding queued MP3s) may take minutes to drain.
    const kill = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(kill);
    rmSync(base, { recursive: true, force: true });
  };
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server in ${root} did not start in 600 s:\n${output.join('').slice(-2000)}`));
    }, 600_000);
    child.stdout.on('data', (d: Buffer) => {
      output.push(d.toString());
      const m = /"url":"(http:\/\/[^"]+)"/.exec(d.toString());
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.stderr.on('data', (d: Buffer) => output.push(d.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      rmSync(base, { recursive: true, force: true });
      reject(new Error(`the server in ${root} exited (${code}) before serving:\n${output.join('').slice(-2000)}`));
    });
  });
  return { url, root, dataDir, output, child, stop };
}

export type RawAnswer = { status: number; headers: Record<string, string | string[] | undefined>; body: string; upgraded: boolean };

/** One request with exactly these headers, Host included (fetch cannot forge Host). */
export function raw(url: string, path: string, headers: Record<string, string>, method = 'GET'): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, method, headers, setHost: !('host' in headers) });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, upgraded: false }));
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '', upgraded: true });
    });
    req.on('error', reject);
    req.end();
  });
}
