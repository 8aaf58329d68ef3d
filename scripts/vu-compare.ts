// `npx tsx scripts/vu-compare.ts BEFORE.json BEFORE.jsonl AFTER.json AFTER.jsonl`: two voice-understanding bench runs
// (`npm run bench -- voice-understanding` output and its BENCH_VU_DUMP) compared, as JSON: the figures that differ
// (time and run fields left out) and the dumps record by record. Exit 1 when anything differs.
import { readFileSync } from 'node:fs';
import { compareDumps, figureDifferences } from './bench/lib/vu-compare.js';

const [bJson, bDump, aJson, aDump] = process.argv.slice(2);
if (!bJson || !bDump || !aJson || !aDump) {
  process.stderr.write('usage: tsx scripts/vu-compare.ts BEFORE.json BEFORE.jsonl AFTER.json AFTER.jsonl\n');
  process.exit(2);
}
// The bench prints { machine, 'voice-understanding': {...} }; a bare figures document is taken as it is.
const figures = (path: string): unknown => {
  const doc = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  return doc['voice-understanding'] ?? doc;
};
const figureDiffs = figureDifferences(figures(bJson), figures(aJson));
const dumps = compareDumps(readFileSync(bDump, 'utf8'), readFileSync(aDump, 'utf8'));
const same = figureDiffs.length === 0 && dumps.differ === 0 && dumps.only_before === 0 && dumps.only_after === 0;
process.stdout.write(`${JSON.stringify({ figures_identical: figureDiffs.length === 0, figure_differences: figureDiffs, dumps, identical: same }, null, 2)}\n`);
process.exit(same ? 0 : 1);
