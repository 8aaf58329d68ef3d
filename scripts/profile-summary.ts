// Summarises a V8 .cpuprofile (node --cpu-prof): where the CPU time went, by self time per function and by area
// (PGlite, JSON, zod, ws, engine, store, the turn pipeline...). `npx tsx scripts/profile-summary.ts <file> [top]`.
// Used for the profile of a 500-socket turn in the speed issue's notes.
import { readFileSync } from 'node:fs';

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number; children?: number[] };
type Profile = { nodes: Node[]; startTime: number; endTime: number; samples?: number[]; timeDeltas?: number[] };

const AREAS: [string, RegExp][] = [
  ['pglite (wasm + js)', /@electric-sql\/pglite|wasm:\/\//],
  ['pg driver', /node_modules\/pg/],
  ['zod', /node_modules\/zod/],
  ['ws', /node_modules\/ws\//],
  ['fastify/http', /node_modules\/(fastify|find-my-way|light-my-request|avvio)|node:http|_http_/],
  ['pino', /node_modules\/(pino|sonic-boom|thread-stream)/],
  ['engine', /\/engine\//],
  ['server/store + db', /\/server\/(store|db)\//],
  ['server/game + realtime', /\/server\/(game|realtime)\//],
  ['server other', /\/server\//],
  ['node internals', /^node:|^internal\//],
];

function area(url: string, fn: string): string {
  if (fn === '(garbage collector)') return 'gc';
  if (fn === '(idle)' || fn === '(program)') return fn;
  if (/^JSON\.|^stringify$|^parse$/.test(fn) && url === '') return 'JSON (native)';
  for (const [name, re] of AREAS) if (re.test(url)) return name;
  return url === '' ? `native (${fn || 'anonymous'})` : 'other';
}

const file = process.argv[2];
if (!file) throw new Error('usage: profile-summary <file.cpuprofile> [top]');
const top = Number(process.argv[3] ?? 25);
const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const selfUs = new Map<number, number>();
const samples = p.samples ?? [];
const deltas = p.timeDeltas ?? [];
for (let i = 0; i < samples.length; i++) {
  const id = samples[i] as number;
  selfUs.set(id, (selfUs.get(id) ?? 0) + (deltas[i + 1] ?? deltas[i] ?? 0));
}
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
const idle = [...selfUs].filter(([id]) => byId.get(id)?.callFrame.functionName === '(idle)').reduce((a, [, v]) => a + v, 0);
const busy = total - idle;
const areas = new Map<string, number>();
const fns = new Map<string, number>();
for (const [id, us] of selfUs) {
  const n = byId.get(id);
  if (!n) continue;
  const a = area(n.callFrame.url, n.callFrame.functionName);
  if (a === '(idle)') continue;
  areas.set(a, (areas.get(a) ?? 0) + us);
  const key = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(node_modules|looptale[^/]*|speed|baseline)\//, '')}:${n.callFrame.lineNumber + 1}`;
  fns.set(key, (fns.get(key) ?? 0) + us);
}
const pct = (us: number): string => `${((100 * us) / Math.max(1, busy)).toFixed(1)}%`;
const out = {
  wall_s: Math.round((p.endTime - p.startTime) / 1e4) / 100,
  busy_s: Math.round(busy / 1e4) / 100,
  areas: Object.fromEntries([...areas].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, `${pct(v)} (${Math.round(v / 1000)} ms)`])),
  top_self: [...fns].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, v]) => `${pct(v)} ${k}`),
};
process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
