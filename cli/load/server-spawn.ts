// `looptale load --spawn-server`: the harness runs the server itself (`looptale serve` in a child process, its own
// data directory and port), so that with --kill-every it can kill it with SIGKILL mid-load and start it again on the
// same port and data: the restart a crash or a deploy gives players. Readiness is GET /healthz answering 200.
// The server runs from the prebuilt bundle (bin/serve-bundle.js, built here first when stale), as `npm start` runs it:
// a restart then costs what a deployed server's restart costs, not a compile of the sources through tsx.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

const BIN = resolve(import.meta.dirname, '../../bin/looptale.js');
const BUNDLE = resolve(import.meta.dirname, '../../bin/serve-bundle.js');

export type Restart = { at_s: number; down_ms: number };

async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => res(port));
    });
  });
}

/** `node bin/serve-bundle.js --if-stale`: never fails (without a bundle, `looptale serve` runs the sources). */
async function buildBundleIfStale(): Promise<void> {
  await new Promise<void>((res) => {
    const child = spawn(process.execPath, [BUNDLE, '--if-stale'], { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('exit', () => res());
    child.on('error', () => res());
  });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export class SpawnedServer {
  readonly restarts: Restart[] = [];
  #child: ChildProcess | null = null;
  #output: string[] = [];
  readonly #started = performance.now();

  private constructor(readonly url: string, readonly port: number, readonly dataDir: string, readonly ownDir: boolean, readonly env: Record<string, string>) {}

  /** Starts `looptale serve` on a free port (DATA_DIR: `dataDir`, else a temporary folder removed by stop()). */
  static async start(o: { dataDir?: string; env?: Record<string, string>; timeoutMs?: number }): Promise<SpawnedServer> {
    const port = await freePort();
    const dataDir = o.dataDir ?? mkdtempSync(join(tmpdir(), 'looptale-load-server-'));
    const s = new SpawnedServer(`http://127.0.0.1:${port}`, port, dataDir, o.dataDir === undefined, o.env ?? {});
    await buildBundleIfStale();
    await s.#launch(o.timeoutMs ?? 120_000);
    return s;
  }

  async #launch(timeoutMs: number): Promise<void> {
    const child = spawn(process.execPath, [BIN, 'serve'], {
      env: {
        ...process.env, LOG_LEVEL: 'warn', AUTH_RATE_LIMIT_SCALE: '100', HTTP_RATE_LIMIT: '100000', ...this.env,
        PORT: String(this.port), HOST: '127.0.0.1', DATA_DIR: this.dataDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.#child = child;
    const keep = (d: Buffer): void => {
      this.#output.push(d.toString());
      if (this.#output.length > 200) this.#output.splice(0, this.#output.length - 200);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const end = performance.now() + timeoutMs;
    while (performance.now() < end) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server exited (${child.exitCode ?? child.signalCode}) before serving:\n${this.#output.join('').slice(-2000)}`);
      try {
        const res = await fetch(`${this.url}/healthz`, { signal: AbortSignal.timeout(1000) });
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      await sleep(50);
    }
    child.kill('SIGKILL');
    throw new Error(`the server did not answer /healthz within ${timeoutMs / 1000} s:\n${this.#output.join('').slice(-2000)}`);
  }

  /** kill -9, then the same server again (same port, same data): when (seconds since `since`) and how long it was down. */
  async killAndRestart(since = this.#started): Promise<Restart> {
    const t0 = performance.now();
    const child = this.#child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGKILL');
      await exited;
    }
    await this.#launch(120_000);
    const r = { at_s: Math.round((t0 - since) / 100) / 10, down_ms: Math.round(performance.now() - t0) };
    this.restarts.push(r);
    return r;
  }

  /** SIGTERM (a graceful stop); the temporary data directory goes with it. */
  async stop(): Promise<void> {
    const child = this.#child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    }
    if (this.ownDir) rmSync(this.dataDir, { recursive: true, force: true });
  }
}
