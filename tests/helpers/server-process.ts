// A real server in its own process (`node bin/looptale.js serve`), for tests that kill it, restart it, or run two
// of them on one PostgreSQL. Resolves once the server logs the URL it serves on (within 120 s by default: a first
// start runs initdb, which took over 30 s on CI at load ~30).
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export type ServerProcess = { url: string; child: ChildProcess; output: string[]; stop(signal?: NodeJS.Signals): Promise<number | null> };

const BIN = join(import.meta.dirname, '../../bin/looptale.js');

export function spawnServer(env: Record<string, string>, timeoutMs = 120_000): Promise<ServerProcess> {
  const child = spawn(process.execPath, [BIN, 'serve'], {
    // The Vite dev server's origin allowed as `npm run dev` does (tests sign in with redirects to it).
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', NODE_ENV: 'test', ALLOWED_ORIGINS: 'http://localhost:8787,http://127.0.0.1:8787,http://localhost:5173', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const stop = async (signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop('SIGKILL');
      reject(new Error(`server did not start in ${timeoutMs} ms:\n${output.join('')}`));
    }, timeoutMs);
    const onData = (d: Buffer): void => {
      const text = d.toString();
      output.push(text);
      const m = /"url":"(http:\/\/[^"]+)"/.exec(text);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve({ url: m[1], child, output, stop });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (d: Buffer) => output.push(d.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before serving:\n${output.join('')}`));
    });
  });
}
