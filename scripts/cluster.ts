// Several game-server processes on one PostgreSQL behind HAProxy (Debian's haproxy), as docs/deploy-supabase.md lays
// out production on several machines: the multi-process test (tests/multi-machine.test.ts) and by hand.
//
//   npx tsx scripts/cluster.ts [--processes 3]     a throwaway PostgreSQL (or DATABASE_URL), N servers, HAProxy;
//                                                  prints the URL and stays up until Ctrl-C
//
// HAProxy logs one line per request or socket when it ends: when it was accepted, which process served it, the status,
// the path without its query string (the socket's token is in the query: never logged), its duration and how it ended.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const HAPROXY_BIN = process.env.HAPROXY_BIN ?? '/usr/sbin/haproxy';
const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin/looptale.js');

export type Backend = { name: string; port: number };

/**
 * The load balancer's configuration. Sockets are long-lived, so the least-connected process gets the next one; a
 * process that stops answering /healthz is out within a second; a connection refused by a dead process is retried on
 * another (redispatch). Requests already sent to a process that dies are not retried (a POST may have been carried
 * out): the client sees 502 and retries as it would any network error.
 */
export function haproxyConfig(o: { port: number; backends: Backend[]; checkMs?: number }): string {
  const inter = o.checkMs ?? 500;
  return `global
  maxconn 4000
  log stdout format raw local0 info

defaults
  mode http
  log global
  # when accepted (ms since epoch), process, status, method, path without the query (the socket's token is in the
  # query), total time (ms), how it ended; logged when the request or the socket ends
  log-format "%Ts%ms %b/%s %ST %HM %HP %Tt %tsc"
  option forwardfor
  option http-server-close
  timeout connect 2s
  timeout client 65s
  timeout server 65s
  # a game socket stays open between turns
  timeout tunnel 1h
  timeout http-keep-alive 10s
  retries 3
  option redispatch 1
  retry-on conn-failure

frontend looptale
  bind 127.0.0.1:${o.port}
  default_backend game

backend game
  balance leastconn
  option httpchk GET /healthz
  http-check expect status 200
  # a slow answer under load is not a failure (timeout check); a dead process refuses at once and is out in ~2 checks
  timeout check 3s
  default-server check inter ${inter}ms fall 2 rise 2
${o.backends.map((b) => `  server ${b.name} 127.0.0.1:${b.port}`).join('\n')}
`;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export type ServerChild = { name: string; url: string; port: number; child: ChildProcess; output: string[]; exited: Promise<number | null> };

/** `looptale serve` in its own process; resolves once it logs the URL it serves on. */
export function spawnLooptale(name: string, env: Record<string, string>, timeoutMs = 60_000): Promise<ServerChild> {
  const child = spawn(process.execPath, [BIN, 'serve'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not start in ${timeoutMs} ms:\n${output.join('').slice(-4000)}`));
    }, timeoutMs);
    let started = false;
    child.stdout.on('data', (d: Buffer) => {
      const text = d.toString();
      if (output.length < 5000) output.push(text);
      const m = started ? null : /"url":"(http:\/\/[^"]+)"/.exec(text);
      if (m?.[1]) {
        started = true;
        clearTimeout(timer);
        resolve({ name, url: m[1], port: Number(new URL(m[1]).port), child, output, exited });
      }
    });
    child.stderr.on('data', (d: Buffer) => {
      if (output.length < 5000) output.push(d.toString());
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (!started) reject(new Error(`${name} exited (${code}) before serving:\n${output.join('').slice(-4000)}`));
    });
  });
}

/** One HAProxy log line: accepted at (ms), which process, status, method, path, duration (ms), termination state. */
export type ProxyLogLine = { at: number; server: string; status: number; method: string; path: string; ms: number; ended: string };

export function parseProxyLog(line: string): ProxyLogLine | null {
  const m = /^(\d{13}) game\/(\S+) (-?\d+) (\S+) (\S+) (-?\d+) (\S+)$/.exec(line.trim());
  if (!m) return null;
  return { at: Number(m[1]), server: m[2] ?? '', status: Number(m[3]), method: m[4] ?? '', path: m[5] ?? '', ms: Number(m[6]), ended: m[7] ?? '' };
}

export type Cluster = {
  /** The load balancer's URL: what clients use. */
  url: string;
  servers: ServerChild[];
  /** HAProxy's access log so far (one line per request or socket). */
  proxyLog: ProxyLogLine[];
  /** HAProxy's other messages (a server going DOWN or UP, alerts). */
  proxyMessages: string[];
  /** kill -9 of one server process; resolves when it is gone. */
  kill(name: string): Promise<void>;
  stop(): Promise<void>;
};

export type ClusterOptions = {
  databaseUrl: string;
  processes?: number;
  /** Extra environment for every server process. */
  env?: Record<string, string>;
};

/**
 * Starts N server processes on one database (the first alone, so it migrates and seeds; then the others at once) and
 * HAProxy in front of them. Resolves once HAProxy sees every process healthy.
 */
export async function startCluster(o: ClusterOptions): Promise<Cluster> {
  const n = o.processes ?? 3;
  const env = {
    DATABASE_URL: o.databaseUrl, TRUST_PROXY: 'true', VOICE: 'off', NODE_ENV: 'test',
    SEED_STORIES: 'true', STORIES_DIR: join(ROOT, 'fixtures/stories'), AUTH_RATE_LIMIT_SCALE: '100', HTTP_RATE_LIMIT: '100000',
    ...o.env,
  };
  const servers: ServerChild[] = [];
  let proxy: ChildProcess | null = null;
  const dir = mkdtempSync(join(tmpdir(), 'looptale-cluster-'));
  const stop = async (): Promise<void> => {
    proxy?.kill('SIGTERM');
    for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGTERM');
    await Promise.all(servers.map((s) => s.exited));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    servers.push(await spawnLooptale('s1', env));
    servers.push(...(await Promise.all(Array.from({ length: n - 1 }, (_, i) => spawnLooptale(`s${i + 2}`, env)))));
    const port = await freePort();
    const cfg = join(dir, 'haproxy.cfg');
    writeFileSync(cfg, haproxyConfig({ port, backends: servers.map((s) => ({ name: s.name, port: s.port })) }));
    const proxyLog: ProxyLogLine[] = [];
    const proxyOut: string[] = [];
    const p = spawn(HAPROXY_BIN, ['-db', '-f', cfg], { stdio: ['ignore', 'pipe', 'pipe'] });
    proxy = p;
    let partial = '';
    p.stdout.on('data', (d: Buffer) => {
      const lines = (partial + d.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const l of lines) {
        const parsed = parseProxyLog(l);
        if (parsed) proxyLog.push(parsed);
        else if (proxyOut.length < 2000) proxyOut.push(l);
      }
    });
    p.stderr.on('data', (d: Buffer) => {
      if (proxyOut.length < 2000) proxyOut.push(...d.toString().split('\n').filter(Boolean));
    });
    const url = `http://127.0.0.1:${port}`;
    await waitFor(async () => {
      if (p.exitCode !== null) throw new Error(`haproxy exited (${p.exitCode}):\n${proxyOut.join('\n')}`);
      // Every process reached through the balancer (leastconn with no sockets open: in turn).
      const seen = new Set(proxyLog.filter((l) => l.path === '/healthz' && l.status === 200).map((l) => l.server));
      if (seen.size === servers.length) return true;
      await fetch(`${url}/healthz`).catch(() => undefined);
      return false;
    }, 30_000, 'HAProxy did not reach every server process');
    return {
      url, servers, proxyLog, proxyMessages: proxyOut,
      async kill(name) {
        const s = servers.find((x) => x.name === name);
        if (!s) throw new Error(`no server ${name}`);
        s.child.kill('SIGKILL');
        await s.exited;
      },
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} within ${timeoutMs} ms`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { startThrowawayPostgres } = await import('./pg-throwaway.js');
  const i = process.argv.indexOf('--processes');
  const processes = i > 0 ? Number(process.argv[i + 1]) : 3;
  const pg = process.env.DATABASE_URL ? null : await startThrowawayPostgres();
  const cluster = await startCluster({ databaseUrl: process.env.DATABASE_URL ?? pg!.url, processes, env: { NODE_ENV: 'development' } }).catch(async (e: unknown) => {
    await pg?.stop();
    throw e;
  });
  process.stdout.write(`${cluster.url}  (${cluster.servers.map((s) => `${s.name} ${s.url}`).join(', ')})\n`);
  const end = async (): Promise<void> => {
    await cluster.stop();
    await pg?.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void end());
  process.once('SIGTERM', () => void end());
}
