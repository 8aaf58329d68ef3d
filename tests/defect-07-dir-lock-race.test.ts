// Defect 7 of issue #14: two processes could take over a dead server's PGlite lock at the same moment (both won in 16
// of 40 trials when calling the lock function directly). The takeover is now atomic: in every trial exactly one of two
// racing processes gets the lock, and the lock file names it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const TRIALS = 40;
const base = mkdtempSync(join(tmpdir(), 'looptale-lockrace-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A process that, for each trial, spins until `go-<i>` appears, then calls acquireDirLock on `t<i>` once. */
function racer(): { child: ChildProcess; results: Map<number, string>; ready: Promise<void> } {
  const script = join(base, 'racer.mts');
  writeFileSync(script, [
    `import { acquireDirLock } from ${JSON.stringify(pathToFileURL(join(ROOT, 'server/db/dir-lock.ts')).href)};`,
    "import { existsSync } from 'node:fs';",
    "import { join } from 'node:path';",
    'const [base, trials] = [process.argv[2] ?? "", Number(process.argv[3])];',
    "process.stdout.write('ready\\n');",
    'for (let i = 0; i < trials; i++) {',
    "  while (!existsSync(join(base, `go-${i}`))) { /* spin: both racers start within microseconds */ }",
    "  let r = 'won';",
    "  try { acquireDirLock(join(base, `t${i}`)); } catch (e) { r = (e as Error).constructor.name; if (r === 'Error') r = ((e as NodeJS.ErrnoException).code ?? 'Error'); }",
    "  process.stdout.write(`${i} ${r}\\n`);",
    '}',
    'process.stdin.resume();',
    "process.stdin.on('end', () => process.exit(0));",
  ].join('\n'));
  const child = spawn(process.execPath, ['--import', 'tsx', script, base, String(TRIALS)], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  const results = new Map<number, string>();
  let buffered = '';
  const ready = new Promise<void>((resolve) => {
    child.stdout?.on('data', (b: Buffer) => {
      buffered += b.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (line === 'ready') resolve();
        const m = /^(\d+) (\w+)$/.exec(line);
        if (m) results.set(Number(m[1]), m[2] ?? '');
      }
    });
  });
  return { child, results, ready };
}

const until = async (done: () => boolean, ms = 30_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error('the racers did not answer');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('defect 7: taking over a dead server\'s lock is atomic', () => {
  it(`gives the lock to exactly one of two racing processes, in each of ${TRIALS} trials`, async () => {
    const a = racer();
    const b = racer();
    await Promise.all([a.ready, b.ready]);
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    const both: number[] = [];
    const neither: number[] = [];
    try {
      for (let i = 0; i < TRIALS; i++) {
        const dir = join(base, `t${i}`);
        mkdirSync(dir);
        writeFileSync(join(dir, 'looptale.lock'), String(dead)); // left by a server killed with -9
        writeFileSync(join(base, `go-${i}`), '');
        await until(() => a.results.has(i) && b.results.has(i));
        const won = [a, b].filter((r) => r.results.get(i) === 'won');
        if (won.length === 2) both.push(i);
        if (won.length === 0) neither.push(i);
        if (won.length === 1) expect(readFileSync(join(dir, 'looptale.lock'), 'utf8')).toBe(String(won[0]?.child.pid));
        for (const r of [a, b]) expect(['won', 'DataDirLockedError']).toContain(r.results.get(i));
      }
    } finally {
      a.child.stdin?.end();
      b.child.stdin?.end();
    }
    expect({ both: both.length, neither: neither.length }).toEqual({ both: 0, neither: 0 });
  });
});
