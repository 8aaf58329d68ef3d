// `looptale doctor` sometimes exited 13 with no output (about 1 run in 3, stdout to a
// file): an await that never settled while the voice closed (a worker or decoder process left unreferenced while it
// was being stopped, so Node found an empty event loop). Twenty runs, stdout to a file: each exits 0 with the report.
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const BIN = join(import.meta.dirname, '../bin/looptale.js');
const dir = mkdtempSync(join(tmpdir(), 'looptale-doctor-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function doctor(i: number): Promise<{ code: number | null; out: string }> {
  const file = join(dir, `out-${i}.txt`);
  const fd = openSync(file, 'w');
  try {
    const child = spawn(process.execPath, [BIN, 'doctor'], { stdio: ['ignore', fd, 'pipe'], env: { ...process.env } });
    const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    return { code, out: readFileSync(file, 'utf8') };
  } finally {
    closeSync(fd);
  }
}

describe('defect 14: looptale doctor always finishes its report', () => {
  it('20 runs with stdout to a file: exit 0 and the whole report every time', async () => {
    const results: { code: number | null; out: string }[] = [];
    for (let batch = 0; batch < 5; batch++) results.push(...await Promise.all([0, 1, 2, 3].map((k) => doctor(batch * 4 + k))));
    for (const r of results) {
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/^Speech to text: {2}/);
      expect(r.out).toContain('Text to speech:  ');
      expect(r.out).toMatch(/PostgreSQL: {6}.+\n$/);
    }
  }, 300_000);
});
