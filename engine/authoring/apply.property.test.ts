// Changes and their inverses over generated stories and the fixture stories: applying a revision's inverse gives the
// draft back, the draft given is never modified, and changes to different things commute and never conflict.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { storyArb } from '../story/arbitraries.js';
import { applyChanges, type Json } from './apply.js';
import { Change, type ChangePath, type Collection, touchOf } from './change.js';
import { conflictsOf } from './merge.js';

const ROOT = join(import.meta.dirname, '../../fixtures/stories');
const lantern = JSON.parse(readFileSync(join(ROOT, 'lantern-keeper/story.json'), 'utf8')) as Json;

const list = (doc: Json, name: string): Json[] => (doc[name] as Json[] | undefined) ?? [];
const value = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(undefined), fc.array(fc.string(), { maxLength: 3 }));
const FIELDS = ['goal', 'hint', 'date', 'speech_patterns', 'display_randomly_probability', 'not_a_field', 'name'];

/** Random changes to a draft: sets of fields of its entities, its catalogue and itself; adds and removes. */
function changesArb(doc: Json): fc.Arbitrary<Change[]> {
  const refs = (['moments', 'characters', 'items', 'places'] as const).flatMap((c) => list(doc, c).map((e) => [c, String(e.id)] as const));
  const ref = fc.constantFrom(...refs);
  const set = (path: ChangePath, v: unknown): Change => (v === undefined ? { op: 'set', path } : { op: 'set', path, value: v });
  const remove = (collection: Collection, id: string): Change => ({ op: 'remove', collection, id });
  const add = (collection: Collection, id: string, after: string | null): Change => ({ op: 'add', collection, value: { id, name: 'new' }, after });
  const change: fc.Arbitrary<Change> = fc.oneof(
    fc.record({ r: ref, field: fc.constantFrom(...FIELDS), v: value }).map(({ r, field, v }) => set([r[0], r[1], field], v)),
    fc.record({ field: fc.constantFrom('description', 'genre_tags', 'is_coming_soon'), v: value }).map(({ field, v }) => set(['catalogue', field], v)),
    value.map((v) => set(['loop_max_number_of_interactions'], v)),
    ref.map(([collection, id]) => remove(collection, id)),
    fc.record({ r: ref, id: fc.uuid({ version: 4 }), first: fc.boolean() }).map(({ r, id, first }) => add(r[0], id, first ? null : r[1])),
  );
  return fc.array(change, { minLength: 1, maxLength: 8 });
}

/** A draft with its lists in id order: two writers' adds at one place may land in either order. */
const byId = (doc: Json): Json => Object.fromEntries(Object.entries(doc).map(([k, v]) => [k, ['moments', 'characters', 'items', 'places'].includes(k) && Array.isArray(v) ? [...(v as Json[])].sort((x, y) => String(x.id).localeCompare(String(y.id))) : v]));

const docs = fc.oneof(fc.constant(lantern), storyArb.map((s) => JSON.parse(JSON.stringify(s)) as Json));

describe('changes to a draft', () => {
  it('every generated change is a valid Change', () => {
    fc.assert(fc.property(docs.chain((d) => changesArb(d)), (cs) => cs.every((c) => Change.safeParse(c).success)), { numRuns: 100, seed: 31 });
  });

  it("a revision's inverse gives the draft back; the draft given is not modified", () => {
    fc.assert(fc.property(docs.chain((d) => fc.tuple(fc.constant(d), changesArb(d))), ([doc, cs]) => {
      const before = JSON.stringify(doc);
      const r = applyChanges(doc, cs);
      expect(JSON.stringify(doc)).toBe(before);
      if (!r.ok) return;
      const back = applyChanges(r.doc, r.inverse);
      expect(back.ok).toBe(true);
      if (back.ok) expect(back.doc).toEqual(doc);
    }), { numRuns: 200, seed: 31 });
  });

  it('changes touching different things do not conflict and give the same draft in either order (up to where two adds land)', () => {
    fc.assert(fc.property(docs.chain((d) => fc.tuple(fc.constant(d), changesArb(d), changesArb(d))), ([doc, mine, theirs]) => {
      const keys = (cs: Change[]) => cs.flatMap((c) => { const t = touchOf(c); return [t.key, t.entity ?? '', t.anchor ?? '']; }).filter(Boolean);
      const theirKeys = new Set(keys(theirs));
      fc.pre(!keys(mine).some((k) => theirKeys.has(k) || [...theirKeys].some((t) => t.startsWith(`${k}/`) || k.startsWith(`${t}/`))));
      const a = applyChanges(doc, theirs);
      fc.pre(a.ok);
      if (!a.ok) return;
      expect(conflictsOf(mine, theirs, doc, a.doc)).toEqual([]);
      const ab = applyChanges(a.doc, mine);
      const b = applyChanges(doc, mine);
      if (!b.ok || !ab.ok) return;
      const ba = applyChanges(b.doc, theirs);
      expect(ba.ok).toBe(true);
      if (ba.ok) expect(byId(ab.doc)).toEqual(byId(ba.doc));
    }), { numRuns: 200, seed: 31 });
  });
});
