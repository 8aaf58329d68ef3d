// One server process per PGlite data directory: a lock file holding the owner's pid. A lock left by a dead process
// (kill -9) is taken over; a live owner gets a clear error.
//
// Atomic: the lock file appears with its content in one step (written aside, then hard-linked into place, which fails
// if the file exists), so nobody ever reads a half-written lock; and a stale lock is taken over only by whoever holds
// a second, short-lived file (looptale.lock.takeover, created the same way), after reading the lock again. Two
// processes finding the same dead owner at the same moment therefore never both win: one takes over, the other then
// finds a live owner. A takeover file left by a process killed during its takeover (a window of microseconds) is
// removed once it is old enough and its owner is dead.
import { linkSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type DirLock = { release(): void };

export class DataDirLockedError extends Error {}

/** A takeover file older than this whose owner is dead is abandoned. */
const ABANDONED_TAKEOVER_MS = 5000;
const ATTEMPTS = 200;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Creates `file` holding our pid, atomically; false when it exists. */
function create(file: string): boolean {
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  writeFileSync(temp, String(process.pid), { mode: 0o600 });
  try {
    linkSync(temp, file);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  } finally {
    rmSync(temp, { force: true });
  }
}

/** The pid in `file`; null when the file is gone. */
function ownerOf(file: string): number | null {
  try {
    return Number(readFileSync(file, 'utf8').trim());
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

const liveOther = (pid: number | null): pid is number => pid !== null && Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid);

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

export function acquireDirLock(dir: string): DirLock {
  const file = join(dir, 'looptale.lock');
  const takeover = join(dir, 'looptale.lock.takeover');
  const locked = (pid: number): DataDirLockedError => new DataDirLockedError(
    `The data directory ${dir} is in use by another Looptale server (pid ${pid}). Stop it, use another DATA_DIR, or use DATABASE_URL (PostgreSQL) to run several servers.`,
  );
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (create(file)) return handleOf(file);
    const owner = ownerOf(file);
    if (owner === null) continue; // released meanwhile: try again
    if (liveOther(owner)) throw locked(owner);
    // Stale: take it over, one process at a time.
    if (!create(takeover)) {
      const taker = ownerOf(takeover);
      try {
        if (taker !== null && !liveOther(taker) && taker !== process.pid && Date.now() - statSync(takeover).mtimeMs > ABANDONED_TAKEOVER_MS) rmSync(takeover, { force: true });
      } catch {
        // gone meanwhile
      }
      pause(5 + Math.floor(Math.random() * 10));
      continue;
    }
    try {
      const again = ownerOf(file);
      if (liveOther(again)) throw locked(again);
      if (Object.is(again, owner)) rmSync(file, { force: true }); // still the stale owner's (or unreadable): ours to remove
      if (create(file)) return handleOf(file);
    } finally {
      rmSync(takeover, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock the data directory ${dir}.`);
}

function handleOf(file: string): DirLock {
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      // Only our own lock: never a successor's.
      if (ownerOf(file) === process.pid) rmSync(file, { force: true });
    },
  };
}
