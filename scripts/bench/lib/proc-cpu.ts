// CPU time of a process tree read from /proc (Linux): a PostgreSQL cluster's postmaster and its backends, so the
// server bench's "server CPU" on PostgreSQL counts the database's work too (on PGlite it is the server's own worker
// thread, already in the server process's figure).
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_S = 100; // USER_HZ: 100 on every Linux the project runs on

/** [pid, ppid, own CPU ticks, reaped children's CPU ticks] from /proc/<pid>/stat, or null when it is gone. */
function stat(pid: number): [number, number, number, number] | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) may hold spaces and parentheses: fields are counted after its closing parenthesis.
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const n = (i: number): number => Number(f[i - 3] ?? 0);
  return [pid, n(4), n(14) + n(15), n(16) + n(17)];
}

/**
 * CPU ms used so far by `root` and its direct children: the root's own time, what it reaped from children that exited
 * (a PostgreSQL backend that closed), and the live children's own time.
 */
export function treeCpuMs(root: number): number | null {
  const own = stat(root);
  if (!own) return null;
  let ticks = own[2] + own[3];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = stat(Number(name));
    if (s && s[1] === root) ticks += s[2];
  }
  return (ticks * 1000) / TICKS_PER_S;
}

/** The postmaster's pid of a cluster's data directory (first line of postmaster.pid). */
export function postmasterPid(clusterDir: string): number | null {
  try {
    const pid = Number(readFileSync(`${clusterDir}/postmaster.pid`, 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** CPU ms used so far by `pid` alone: its own time and what it reaped from children that exited. */
export function ownCpuMs(pid: number): number | null {
  const s = stat(pid);
  return s ? ((s[2] + s[3]) * 1000) / TICKS_PER_S : null;
}
