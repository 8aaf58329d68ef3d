// Writes tests/setup/file-durations.json, the seconds each test file took, from the output of a full `vitest run`
// (the default reporter's "✓ path (N tests) 1234ms" lines; colours are stripped). The longest-first sequencer
// (tests/setup/longest-first.ts) reads it, so that a clean clone, which has no vitest results cache, still starts its
// slowest files first. Usage: tsx scripts/test-durations.ts <vitest output file>  (e.g. a CI log).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const OUT = join(import.meta.dirname, '..', 'tests', 'setup', 'file-durations.json');

export function parseDurations(log: string): Record<string, number> {
  const seconds: Record<string, number> = {};
  // eslint-disable-next-line no-control-regex
  for (const line of log.replace(/\x1b\[[0-9;]*m/g, '').split('\n')) {
    const m = /^\s*[✓❯×↓]\s+(\S+\.test\.ts)\s+\([^)]*\)\s+(\d+)ms\s*$/.exec(line);
    if (m?.[1] && m[2]) seconds[m[1]] = Math.round(Number(m[2]) / 100) / 10;
  }
  return Object.fromEntries(Object.entries(seconds).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
}

if (process.argv[1] && import.meta.url === `file://${process.argv[1]}`) {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write('usage: tsx scripts/test-durations.ts <vitest output file>\n');
    process.exit(2);
  }
  const durations = parseDurations(readFileSync(file, 'utf8'));
  const n = Object.keys(durations).length;
  if (n === 0) {
    process.stderr.write(`no "✓ file (N tests) Xms" lines in ${file}: nothing written\n`);
    process.exit(1);
  }
  writeFileSync(OUT, `${JSON.stringify(durations, null, 2)}\n`);
  process.stdout.write(`${n} files, ${Object.values(durations).reduce((a, b) => a + b, 0).toFixed(0)} s in all, written to ${OUT}\n`);
}
