// `looptale doctor` with its output to a file, as a script or CI would run it: a try holds when it exits non-zero or
// leaves the report unfinished (it used to exit 13 with no output about one run in three).
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tally, type Probe } from './types.js';

async function doctor(root: string, file: string): Promise<{ code: number | null; out: string }> {
  const fd = openSync(file, 'w');
  try {
    const child = spawn(process.execPath, [join(root, 'bin/looptale.js'), 'doctor'], { cwd: root, stdio: ['ignore', fd, 'ignore'] });
    const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    return { code, out: readFileSync(file, 'utf8') };
  } finally {
    closeSync(fd);
  }
}

export const doctorProbe: Probe = {
  group: 'doctor',
  items: [13],
  async run({ target, tries }) {
    const dir = mkdtempSync(join(tmpdir(), 'looptale-probe-doctor-'));
    const codes = new Map<string, number>();
    const outcomes: boolean[] = [];
    try {
      const n = Math.min(tries, 20);
      for (let i = 0; i < n; i += 4) {
        const batch = await Promise.all(Array.from({ length: Math.min(4, n - i) }, (_, k) => doctor(target.root, join(dir, `out-${i + k}.txt`))));
        for (const r of batch) {
          codes.set(String(r.code), (codes.get(String(r.code)) ?? 0) + 1);
          outcomes.push(r.code !== 0 || !/^Speech to text: {2}/.test(r.out) || !/PostgreSQL: {6}.+\n$/.test(r.out));
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return [tally(13, 'looptale doctor (stdout to a file) exits non-zero or cuts its report', outcomes, Object.fromEntries([...codes].map(([c, n]) => [`exit_${c}`, n])))];
  },
};
