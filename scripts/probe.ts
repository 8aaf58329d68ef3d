// `npm run probe`: tries the attacks of the second hardening round against a real server and counts, per attack, the
// tries, how many the server refused, and how many held (the attack worked; each must be 0). Prints a table and, with
// --json FILE, the rows as JSON; exits 1 when any attack held.
//   --root DIR    run the server from another checkout (an older commit, to see each attack hold there)
//   --tries N     tries of each repeatable attack (default 50; the test runs 2)
//   --only A,B    only these probe groups (names in the table's first column)
// The results of a run before and after the fixes are in docs/hardening-probes.md.
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { PROBES } from './probe/all.js';
import { startTarget } from './probe/target.js';
import type { Row } from './probe/types.js';

const Args = z.object({
  root: z.string().default(join(import.meta.dirname, '..')),
  tries: z.coerce.number().int().min(1).max(1000).default(50),
  only: z.string().optional(),
  json: z.string().optional(),
});

const { values } = parseArgs({ options: { root: { type: 'string' }, tries: { type: 'string' }, only: { type: 'string' }, json: { type: 'string' } } });
const parsed = Args.safeParse(values);
if (!parsed.success) {
  process.stderr.write(`probe: ${parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('; ')}\n`);
  process.exit(2);
}
const args = parsed.data;
const wanted = args.only?.split(',').map((s) => s.trim()).filter(Boolean);
const unknown = wanted?.filter((w) => !PROBES.some((p) => p.group === w)) ?? [];
if (unknown.length) {
  process.stderr.write(`probe: no probe group ${unknown.join(', ')} (groups: ${PROBES.map((p) => p.group).join(', ')})\n`);
  process.exit(2);
}
const root = resolve(args.root);
const probes = PROBES.filter((p) => !wanted || wanted.includes(p.group));

const target = await startTarget(root);
const others: { stop(): Promise<void> }[] = [];
const rows: (Row & { group: string })[] = [];
try {
  for (const p of probes) {
    const t0 = performance.now();
    try {
      const got = await p.run({
        target, tries: args.tries,
        startOther: async (env) => {
          const t = await startTarget(root, env);
          others.push(t);
          return t;
        },
      });
      rows.push(...got.map((r) => ({ group: p.group, ...r })));
    } catch (e) {
      // A probe that broke is reported, not hidden: its row counts no try.
      rows.push({ group: p.group, item: p.items[0] ?? 0, attack: `probe failed: ${(e as Error).message.split('\n')[0]}`, tries: 0, refused: 0, held: 0 });
    }
    process.stderr.write(`probe ${p.group}: ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  }
} finally {
  await Promise.all([target.stop(), ...others.map((o) => o.stop())]);
}

const cells = rows.map((r) => [r.group, String(r.item), r.attack, String(r.tries), String(r.refused), String(r.held), r.figures ? Object.entries(r.figures).map(([k, v]) => `${k}=${v}`).join(' ') : '']);
const head = ['group', 'item', 'attack', 'tries', 'refused', 'held', 'figures'];
const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
const line = (c: string[]): string => c.map((x, i) => (i >= 3 && i <= 5 ? x.padStart(widths[i] ?? 0) : x.padEnd(widths[i] ?? 0))).join('  ').trimEnd();
process.stdout.write(`${[line(head), ...cells.map(line)].join('\n')}\n`);
const held = rows.reduce((n, r) => n + r.held, 0);
const failed = rows.filter((r) => r.attack.startsWith('probe failed')).length;
process.stdout.write(`\nserver from ${root}: ${rows.reduce((n, r) => n + r.tries, 0)} tries, ${rows.reduce((n, r) => n + r.refused, 0)} refused, ${held} held${failed ? `, ${failed} probes failed` : ''}\n`);
if (args.json) writeFileSync(args.json, `${JSON.stringify({ root, tries: args.tries, rows }, null, 2)}\n`);
process.exit(held > 0 || failed > 0 ? 1 : 0);
