// Applies changes to a story draft, as its JSON (the file's own form: key order kept, defaults not filled in), and
// gives each change's exact inverse, so that a revision can be undone by applying its inverses in reverse order.
// Pure: the draft given is never modified; the result shares what did not change.
import type { Change, ChangePath } from './change.js';

export type Json = Record<string, unknown>;
export type ApplyProblem = { path: string; code: string; message: string };
export type Applied = { ok: true; doc: Json; inverse: Change[] } | { ok: false; problems: ApplyProblem[] };

const isRecord = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);

function setField(obj: Json, field: string, value: unknown): Json {
  const out = { ...obj };
  if (value === undefined) delete out[field];
  else out[field] = value;
  return out;
}

const problem = (path: string, code: string, message: string): Applied => ({ ok: false, problems: [{ path, code, message }] });

function listOf(doc: Json, name: string): Json[] {
  const l = doc[name];
  return Array.isArray(l) ? l.filter(isRecord) : [];
}

function applySet(doc: Json, path: ChangePath, value: unknown): Applied {
  const [a, b, field] = path;
  const undo = (old: unknown): Change => (old === undefined ? { op: 'set', path } : { op: 'set', path, value: old });
  if (field === undefined && b === undefined) {
    return { ok: true, doc: setField(doc, a, value), inverse: [undo(doc[a])] };
  }
  if (field === undefined) {
    const cat = doc.catalogue;
    if (!isRecord(cat)) return problem('$.catalogue', 'change/no_catalogue', 'The story has no catalogue to change.');
    return { ok: true, doc: { ...doc, catalogue: setField(cat, b as string, value) }, inverse: [undo(cat[b as string])] };
  }
  const list = listOf(doc, a);
  const i = list.findIndex((e) => e.id === b);
  if (i < 0) return problem(`$.${a}`, 'change/unknown_id', `No ${a.replace(/s$/, '')} ${b} in the story.`);
  const entity = list[i] as Json;
  const next = [...list];
  next[i] = setField(entity, field, value);
  return { ok: true, doc: { ...doc, [a]: next }, inverse: [undo(entity[field])] };
}

/** Applies one change; its inverse undoes it exactly. */
export function applyChange(doc: Json, c: Change): Applied {
  if (c.op === 'set') return applySet(doc, c.path, c.value);
  const list = listOf(doc, c.collection);
  const kind = c.collection.replace(/s$/, '');
  if (c.op === 'add') {
    const id = c.value.id;
    if (list.some((e) => e.id === id)) return problem(`$.${c.collection}`, 'change/duplicate_id', `The story already has a ${kind} ${String(id)}.`);
    let at = list.length;
    if (c.after === null) at = 0;
    else if (c.after !== undefined) {
      const j = list.findIndex((e) => e.id === c.after);
      if (j < 0) return problem(`$.${c.collection}`, 'change/unknown_id', `No ${kind} ${c.after} to add after.`);
      at = j + 1;
    }
    const next = [...list.slice(0, at), c.value, ...list.slice(at)];
    return { ok: true, doc: { ...doc, [c.collection]: next }, inverse: [{ op: 'remove', collection: c.collection, id: String(id) }] };
  }
  const i = list.findIndex((e) => e.id === c.id);
  if (i < 0) return problem(`$.${c.collection}`, 'change/unknown_id', `No ${kind} ${c.id} in the story.`);
  const prev = i === 0 ? null : String((list[i - 1] as Json).id);
  const next = list.filter((_, j) => j !== i);
  return { ok: true, doc: { ...doc, [c.collection]: next }, inverse: [{ op: 'add', collection: c.collection, value: list[i] as Json, after: prev }] };
}

/** Applies changes in order, all or none; the inverse list undoes them all when applied in its own order. */
export function applyChanges(doc: Json, changes: readonly Change[]): Applied {
  let cur = doc;
  const inverse: Change[] = [];
  for (const [n, c] of changes.entries()) {
    const r = applyChange(cur, c);
    if (!r.ok) return { ok: false, problems: r.problems.map((p) => ({ ...p, message: `Change ${n + 1}: ${p.message}` })) };
    cur = r.doc;
    inverse.unshift(...r.inverse);
  }
  return { ok: true, doc: cur, inverse };
}
