// Two voice-understanding bench runs compared (BEFORE and AFTER a change that should not change what is understood):
// their JSON figures without what measures time or names the run, and their dumps (BENCH_VU_DUMP) record by record.
// A record is matched by what was tried (set, kind, story, stage, voice, text) and compared on everything but the time
// it took (`ms`); the dump's order is the order clips finished in (two workers), so it is not compared.
import { canonicalJson } from './sim-records.js';

/** The figures' fields that measure time, the machine or name the code: expected to differ between two runs. */
const RUN_FIELDS = new Set(['understand_ms', 'started_at', 'total_s', 'machine_load_avg_1m', 'code']);

function withoutRunFields(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutRunFields);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v as Record<string, unknown>).filter(([k]) => !RUN_FIELDS.has(k)).map(([k, x]) => [k, withoutRunFields(x)]));
}

/** Paths (a.b.c) where two figures documents differ, run fields left out. */
export function figureDifferences(a: unknown, b: unknown, path = ''): string[] {
  const x = withoutRunFields(a);
  const y = withoutRunFields(b);
  if (canonicalJson(x) === canonicalJson(y)) return [];
  if (x === null || y === null || typeof x !== 'object' || typeof y !== 'object' || Array.isArray(x) !== Array.isArray(y)) return [path || '(root)'];
  const xo = x as Record<string, unknown>;
  const yo = y as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(xo), ...Object.keys(yo)])].sort();
  return keys.flatMap((k) => figureDifferences(xo[k], yo[k], path ? `${path}.${k}` : k));
}

type DumpRecord = Record<string, unknown>;

const keyOf = (r: DumpRecord): string => canonicalJson([r.set, r.kind, r.story, r.stage, r.voice, r.text]);

function body(r: DumpRecord): string {
  const { ms: _ms, ...rest } = r;
  return canonicalJson(rest);
}

export type DumpComparison = {
  records: [number, number];
  identical: number;
  differ: number;
  only_before: number;
  only_after: number;
  /** Up to `limit` differing records, with the fields that differ. */
  examples: { key: string; fields: Record<string, [unknown, unknown]> }[];
};

/** Two dumps (JSONL text) compared record by record, matched by what was tried (a key tried twice is matched in the
 *  order of its records' bodies). */
export function compareDumps(before: string, after: string, limit = 10): DumpComparison {
  const parse = (text: string): DumpRecord[] => text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as DumpRecord);
  const group = (rs: DumpRecord[]): Map<string, DumpRecord[]> => {
    const m = new Map<string, DumpRecord[]>();
    for (const r of rs) {
      const k = keyOf(r);
      let list = m.get(k);
      if (!list) m.set(k, (list = []));
      list.push(r);
    }
    for (const list of m.values()) list.sort((p, q) => (body(p) < body(q) ? -1 : body(p) > body(q) ? 1 : 0));
    return m;
  };
  const b = parse(before);
  const a = parse(after);
  const gb = group(b);
  const ga = group(a);
  const out: DumpComparison = { records: [b.length, a.length], identical: 0, differ: 0, only_before: 0, only_after: 0, examples: [] };
  for (const [k, lb] of gb) {
    const la = ga.get(k) ?? [];
    for (let i = 0; i < Math.max(lb.length, la.length); i++) {
      const rb = lb[i];
      const ra = la[i];
      if (!ra) out.only_before++;
      else if (!rb) out.only_after++;
      else if (body(rb) === body(ra)) out.identical++;
      else {
        out.differ++;
        if (out.examples.length < limit) {
          const fields: Record<string, [unknown, unknown]> = {};
          for (const f of new Set([...Object.keys(rb), ...Object.keys(ra)])) {
            if (f !== 'ms' && canonicalJson(rb[f]) !== canonicalJson(ra[f])) fields[f] = [rb[f], ra[f]];
          }
          out.examples.push({ key: k, fields });
        }
      }
    }
  }
  for (const [k, la] of ga) if (!gb.has(k)) out.only_after += la.length;
  return out;
}
