// `npm run bench`: runs every benchmark module in scripts/bench/ (or those named on the command line) and prints
// one JSON document. Figures are measured here, side by side with their baselines; tests never assert on time.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import os from 'node:os';

type BenchModule = { run: (opts?: Record<string, unknown>) => Promise<Record<string, unknown>> };

const dir = join(import.meta.dirname, 'bench');
const only = process.argv.slice(2);
const names = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts')).map((f) => f.replace(/\.ts$/, ''))
  .filter((n) => only.length === 0 || only.includes(n)).sort();
const results: Record<string, unknown> = {
  machine: { node: process.version, cpus: os.cpus().length, cpu: os.cpus()[0]?.model ?? 'unknown', memory_gib: Math.round(os.totalmem() / 2 ** 30) },
};
for (const name of names) {
  const mod = (await import(pathToFileURL(join(dir, `${name}.ts`)).href)) as BenchModule;
  process.stderr.write(`bench: ${name}...\n`);
  results[name] = await mod.run();
}
process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
