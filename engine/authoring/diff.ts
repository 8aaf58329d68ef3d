// The changes that turn one story draft into another: what a whole-file import records as one revision, field by
// field, so its history reads like any other edit ("set moments/ID/goal") and can be restored like any other.
// Entities are matched by id; an entity that moved in its list is removed and added again at its new place.
import type { Json } from './apply.js';
import { type Change, type ChangePath, Collection, StoryField } from './change.js';

const isRecord = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);
const same = (x: unknown, y: unknown): boolean => JSON.stringify(x) === JSON.stringify(y);
const list = (doc: Json, name: string): Json[] => (Array.isArray(doc[name]) ? (doc[name] as unknown[]).filter(isRecord) : []);

function fieldChanges(before: Json, after: Json, path: (field: string) => ChangePath): Change[] {
  const out: Change[] = [];
  for (const k of Object.keys(before)) {
    if (!(k in after)) out.push({ op: 'set', path: path(k) });
  }
  for (const [k, v] of Object.entries(after)) {
    if (!same(before[k], v)) out.push({ op: 'set', path: path(k), value: v });
  }
  return out;
}

/** The ids of `b` in order, keeping only those of `a` whose order among the shared ids is unchanged. */
function keptInOrder(a: readonly string[], b: readonly string[]): Set<string> {
  const inA = new Set(a);
  const shared = b.filter((id) => inA.has(id));
  const posA = new Map(a.map((id, i) => [id, i]));
  // Longest increasing run of positions in `a`, along `b`: the entities that need not move.
  const seq = shared.map((id) => posA.get(id) ?? 0);
  const tails: number[] = [];
  const prev: number[] = new Array<number>(seq.length).fill(-1);
  seq.forEach((x, i) => {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((seq[tails[mid] ?? 0] ?? 0) < x) lo = mid + 1;
      else hi = mid;
    }
    prev[i] = lo > 0 ? (tails[lo - 1] ?? -1) : -1;
    tails[lo] = i;
  });
  const keep = new Set<string>();
  for (let i = tails[tails.length - 1] ?? -1; i >= 0; i = prev[i] ?? -1) keep.add(shared[i] ?? '');
  return keep;
}

function collectionChanges(name: Collection, before: Json, after: Json): Change[] {
  const a = list(before, name);
  const b = list(after, name);
  const aIds = a.map((e) => String(e.id));
  const bIds = b.map((e) => String(e.id));
  const keep = keptInOrder(aIds, bIds);
  const byIdA = new Map(a.map((e) => [String(e.id), e]));
  const out: Change[] = [];
  for (const id of aIds) if (!keep.has(id)) out.push({ op: 'remove', collection: name, id });
  b.forEach((e, i) => {
    const id = String(e.id);
    const old = byIdA.get(id);
    if (keep.has(id) && old) {
      out.push(...fieldChanges(old, e, (f) => [name, id, f] as ChangePath));
    } else {
      out.push({ op: 'add', collection: name, value: e, after: i === 0 ? null : bIds[i - 1] ?? null });
    }
  });
  return out;
}

/** Changes that turn `before` into a draft equal to `after` field by field (the story's own fields, its catalogue,
 *  and each entity by id). */
export function diffDrafts(before: Json, after: Json): Change[] {
  const out: Change[] = [];
  for (const f of StoryField.options) {
    if (!same(before[f], after[f])) out.push(after[f] === undefined ? { op: 'set', path: [f] } : { op: 'set', path: [f], value: after[f] });
  }
  const ca = isRecord(before.catalogue) ? before.catalogue : {};
  const cb = isRecord(after.catalogue) ? after.catalogue : {};
  out.push(...fieldChanges(ca, cb, (f) => ['catalogue', f] as ChangePath));
  for (const c of Collection.options) out.push(...collectionChanges(c, before, after));
  return out;
}
