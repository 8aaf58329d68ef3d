// Embedded PostgreSQL (PGlite, WASM) in DATA_DIR, run in a worker thread (pglite-worker.js): its query execution and
// file I/O happen beside the event loop, never on it. One connection: the worker runs queries one at a time, in
// order; a transaction keeps other queries out until it ends. A lock file keeps a second server process off the same
// data directory.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Db, Queryable, QueryOptions, Row } from './db.js';
import { acquireDirLock, type DirLock } from './dir-lock.js';
import { makePrivateDir, tightenTree } from './private-files.js';
import { DEFAULT_VACUUM_POLICY, PgliteVacuum, type VacuumPolicy } from './pglite-vacuum.js';

type Request = { op: 'open'; dataDir: string | null; settings: Record<string, string> } | { op: 'query'; sql: string; params: readonly unknown[]; prepare?: boolean } | { op: 'exec'; sql: string } | { op: 'close' };
type Reply = { id: number; ok: true; rows: Row[]; affected: number } | { id: number; ok: false; error: { message: string; name: string } & Record<string, unknown> };

/** A database error from the worker, with the fields PostgreSQL gave it (code, detail, constraint...). */
export class PgliteError extends Error {
  constructor(fields: { message: string; name: string } & Record<string, unknown>) {
    super(fields.message);
    for (const [k, v] of Object.entries(fields)) if (k !== 'message' && k !== 'stack') (this as unknown as Record<string, unknown>)[k] = v;
  }
}

/**
 * PostgreSQL's buffer cache in PGlite's WASM memory, all of it resident from the start (PostgreSQL's default, 128 MB,
 * is for a dedicated machine). The server's working set is far smaller, and the OS page cache still holds the files.
 */
export const PGLITE_SHARED_BUFFERS = '16MB';
const WORKER_YOUNG_GENERATION_MB = 2;

/**
 * PostgreSQL settings given at start on top of shared_buffers. PGlite is one backend in single-user mode: no WAL
 * writer or checkpointer prepares WAL segments ahead, so the commit that crosses a 16 MB segment boundary creates the
 * next one itself, and by default fills it with 16 MB of zeroes first (one commit in ~1,600 took 12-25 ms instead of
 * ~1 ms on a quiet machine, #12; 100+ ms stalls of the worker under load). Without the zero fill the segment is
 * created at its full size in one write (ext4, tmpfs: a sparse file); fsync is off in PGlite anyway.
 */
const PGLITE_SETTINGS: Record<string, string> = { wal_init_zero: 'off' };

function startWorker(): { call: (req: Request) => Promise<{ rows: Row[]; affected: number }>; stop: () => Promise<void> } {
  // execArgv: [] so a parent started through a loader (tsx, test runners) does not load it again in the thread.
  // A small young generation: the garbage a burst of queries leaves there (rows, messages) stays resident until the
  // next scavenge, which an idle worker never runs; V8's default lets it reach tens of MB (#12, #14 idle memory).
  // 2 MB rather than 8: V8 starts a full (mark-compact) collection as soon as the old generation's headroom is less
  // than the young generation's capacity, and the worker's old generation (~11 MB live) only ever gets ~2x headroom,
  // so with 8 MB it mostly ran a major GC every ~100-300 commits (11-33 per 3,000-4,000 sequential commits in 9 of 12
  // runs, 2 in the others; pauses up to 10-35 ms under load); with 2 MB, 2-4 in each of 7 runs, for more but shorter scavenges (~0.6 ms each on a quiet machine)
  // and the same worker CPU per commit (#12, 13:40-13:45 UTC runs in notes/12-sockets.md).
  const worker = new Worker(new URL('./pglite-worker.js', import.meta.url), { execArgv: [], resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB } });
  let nextId = 1;
  let dead: Error | null = null;
  const pending = new Map<number, { resolve: (r: { rows: Row[]; affected: number }) => void; reject: (e: Error) => void }>();
  // The thread keeps the process alive only while a request is out (a forgotten close() does not hang a CLI).
  worker.unref();
  const settle = (): void => {
    if (pending.size === 0) worker.unref();
  };
  worker.on('message', (m: Reply) => {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    settle();
    if (m.ok) p.resolve({ rows: m.rows, affected: m.affected });
    else p.reject(new PgliteError(m.error));
  });
  const fail = (e: Error): void => {
    dead = e;
    for (const p of pending.values()) p.reject(e);
    pending.clear();
  };
  worker.on('error', (e) => fail(new Error(`the PGlite worker failed: ${e.message}`)));
  worker.on('exit', (code) => fail(new Error(`the PGlite worker stopped (exit code ${code})`)));
  return {
    call(req) {
      if (dead) return Promise.reject(dead);
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.ref();
        worker.postMessage({ id, ...req });
      });
    },
    async stop() {
      await worker.terminate();
    },
  };
}

/** Runs pglite-initdb.js: a new, empty database in `dir` (which must not exist). */
async function initdb(dir: string): Promise<void> {
  const stderr: string[] = [];
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [new URL('./pglite-initdb.js', import.meta.url).pathname, dir], { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr.on('data', (d: Buffer) => stderr.push(d.toString()));
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0 || !existsSync(join(dir, 'PG_VERSION'))) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`could not create the database in ${dir} (initdb exited with ${code}): ${stderr.join('').trim().slice(-1000)}`);
  }
}

/**
 * Creates the data directory `path` when it holds no database yet, in a child process (pglite-initdb.js: PGlite would
 * otherwise keep initdb's ~450 MB for as long as the server runs). It is built beside `path` and renamed into place, so
 * a start killed half-way leaves no half-made database behind. With `templateDir` (tests: a private temporary
 * directory for the whole run), the first new database is kept there and later ones are copies of it: initdb costs
 * seconds of CPU, a copy a fraction of one. The caller holds the data directory's lock.
 */
async function createDataDir(path: string, templateDir?: string): Promise<void> {
  if (existsSync(join(path, 'PG_VERSION'))) return;
  // A non-empty directory without PG_VERSION is not ours to replace: PGlite's own start-up handles it as before.
  if (existsSync(path) && readdirSync(path).length > 0) return;
  const tmp = `${path}.initdb`;
  rmSync(tmp, { recursive: true, force: true });
  const template = templateDir ? join(resolve(templateDir), 'pglite') : null;
  if (template && existsSync(join(template, 'PG_VERSION'))) {
    cpSync(template, tmp, { recursive: true });
  } else {
    await initdb(tmp);
    if (template) {
      // Published whole by a rename; when another process got there first, its copy stays and ours is dropped.
      const staging = `${template}.${process.pid}.${Date.now()}`;
      try {
        mkdirSync(resolve(template, '..'), { recursive: true });
        cpSync(tmp, staging, { recursive: true });
        renameSync(staging, template);
      } catch {
        rmSync(staging, { recursive: true, force: true });
      }
    }
  }
  if (existsSync(path)) rmSync(path, { recursive: true, force: true }); // empty (checked above)
  renameSync(tmp, path);
}

/** PGlite's memory settings (PostgreSQL defaults are for a dedicated machine: shared_buffers 128 MB). */
export type PgliteOptions = {
  sharedBuffers?: string;
  /**
   * Where a new empty database is kept, to copy for the next new data directory. Default: the PGLITE_TEMPLATE_DIR
   * environment variable, a test-only knob (the test run's global setup sets it to a private temporary directory, and
   * every server and store the tests start, in any process, shares it); unset, every new directory runs initdb.
   */
  templateDir?: string;
  /** The VACUUM PGlite's single-user PostgreSQL does not run itself (pglite-vacuum.ts); false: none (tests). */
  vacuum?: VacuumPolicy | false;
};

export async function openPglite(dataDir: string | null, opts: PgliteOptions = {}): Promise<Db> {
  let lock: DirLock | null = null;
  let path: string | null = null;
  if (dataDir !== null) {
    const dir = resolve(dataDir);
    makePrivateDir(dir);
    lock = acquireDirLock(dir);
    path = join(dir, 'pglite');
    try {
      await createDataDir(path, opts.templateDir ?? (process.env.PGLITE_TEMPLATE_DIR || undefined));
      // The unpacked archive, a copied template and an older version's files come with group and other permissions.
      tightenTree(dir);
    } catch (e) {
      lock.release();
      throw e;
    }
  }
  const w = startWorker();
  try {
    await w.call({ op: 'open', dataDir: path, settings: { ...PGLITE_SETTINGS, shared_buffers: opts.sharedBuffers ?? PGLITE_SHARED_BUFFERS } });
  } catch (e) {
    await w.stop();
    lock?.release();
    throw e;
  }
  // Plain queries are posted to the worker at once: it runs its messages one at a time, in order, so the next query
  // is already waiting there when one ends and the worker never sleeps until this thread hears back (under a loaded
  // machine, each of those wake-ups cost milliseconds, and a queue of turns drained at one per two thread hops). A
  // transaction holds the connection from BEGIN to its end: queries asked for meanwhile wait behind it, in order.
  let gate: Promise<void> = Promise.resolve();
  let waiting = 0;
  const admit = <T>(start: () => Promise<T>, hold: boolean): Promise<T> => {
    if (waiting === 0 && !hold) return start();
    waiting++;
    const prev = gate;
    let release!: () => void;
    gate = new Promise<void>((r) => (release = () => {
      waiting--;
      r();
    }));
    return prev.then(() => {
      const p = start();
      if (hold) p.then(release, release);
      else release();
      return p;
    });
  };
  const query = async <T extends Row = Row>(sql: string, params: readonly unknown[] = [], opts: QueryOptions = {}): Promise<{ rows: T[]; rowCount: number }> => {
    const r = await w.call({ op: 'query', sql, params, ...(opts.prepare ? { prepare: true } : {}) });
    return { rows: r.rows as T[], rowCount: r.affected };
  };
  // The autovacuum single-user PostgreSQL lacks: when enough calls were made, at a moment nothing is in flight.
  const vacuum = opts.vacuum === false ? null : new PgliteVacuum(opts.vacuum ?? DEFAULT_VACUUM_POLICY);
  let inflight = 0;
  let closed = false;
  const tracked = <T>(p: Promise<T>): Promise<T> => {
    if (!vacuum) return p;
    inflight++;
    const done = (): void => {
      inflight--;
      vacuum.count();
      if (!closed && vacuum.due(inflight > 0)) void admit(() => vacuum.run({ query }), true).catch(() => undefined);
    };
    p.then(done, done);
    return p;
  };
  return {
    kind: 'pglite',
    query: (sql, params, opts) => tracked(admit(() => query(sql, params, opts), false)),
    tx: <T>(fn: (q: Queryable) => Promise<T>) => tracked(admit(async () => {
      await w.call({ op: 'exec', sql: 'BEGIN' });
      try {
        const out = await fn({ query });
        await w.call({ op: 'exec', sql: 'COMMIT' });
        return out;
      } catch (e) {
        await w.call({ op: 'exec', sql: 'ROLLBACK' }).catch(() => undefined);
        throw e;
      }
    }, true)),
    async close() {
      if (closed) return;
      closed = true;
      // Behind every transaction and query asked for before (the worker answers in order).
      await admit(() => w.call({ op: 'close' }), true).catch(() => undefined);
      await w.stop();
      lock?.release();
    },
  };
}
