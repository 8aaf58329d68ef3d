// `npm run dev`: the game server (restarting on change, tsx watch) and the web app with hot reload (Vite, proxying the
// server's routes), side by side; Ctrl+C stops both. PORT (server, default 8787) and VITE_PORT (default 5173).
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const port = process.env.PORT ?? '8787';
const vitePort = process.env.VITE_PORT ?? '5173';
const origins = process.env.ALLOWED_ORIGINS ?? `http://localhost:${port},http://127.0.0.1:${port},http://localhost:${vitePort},http://127.0.0.1:${vitePort}`;

const children: ChildProcess[] = [
  spawn(join(ROOT, 'node_modules', '.bin', 'tsx'), ['watch', '--clear-screen=false', 'bin/looptale.js', 'serve'], {
    cwd: ROOT, stdio: 'inherit', env: { ...process.env, PORT: port, ALLOWED_ORIGINS: origins },
  }),
  spawn(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), '--config', 'web/vite.config.ts'], {
    cwd: ROOT, stdio: 'inherit', env: { ...process.env, LOOPTALE_SERVER: `http://localhost:${port}`, VITE_PORT: vitePort },
  }),
];

let stopping = false;
function stop(code: number): void {
  if (stopping) return;
  stopping = true;
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  process.exitCode = code;
}
for (const c of children) c.on('exit', (code) => stop(code ?? 1));
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
