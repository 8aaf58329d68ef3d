import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyChanges, type Json } from './apply.js';
import { Changes } from './change.js';
import { diffDrafts } from './diff.js';

const ids = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222', '33333333-3333-4333-8333-333333333333',
  '44444444-4444-4444-8444-444444444444', '55555555-5555-4555-8555-555555555555'];

const entity = (id: string) => fc.record({ id: fc.constant(id), name: fc.string({ maxLength: 4 }), goal: fc.option(fc.string({ maxLength: 4 }), { nil: undefined }) }, { requiredKeys: ['id', 'name'] });
const entities = fc.shuffledSubarray(ids).chain((xs) => fc.tuple(...xs.map(entity)));
const draft = fc.record({
  name: fc.string({ maxLength: 5 }),
  catalogue: fc.record({ description: fc.string({ maxLength: 4 }), is_coming_soon: fc.boolean() }, { requiredKeys: ['description'] }),
  moments: entities,
  characters: entities,
}) as fc.Arbitrary<Json>;

const canonical = (d: Json): unknown => ({
  ...d,
  moments: (d.moments as Json[]).map((e) => Object.fromEntries(Object.entries(e).sort())),
  characters: (d.characters as Json[]).map((e) => Object.fromEntries(Object.entries(e).sort())),
  catalogue: Object.fromEntries(Object.entries(d.catalogue as Json).sort()),
});

describe('diffDrafts', () => {
  it('gives valid changes that turn one draft into the other, field for field and in list order', () => {
    fc.assert(fc.property(draft, draft, (a, b) => {
      const changes = diffDrafts(a, b);
      if (changes.length === 0) {
        expect(canonical(a)).toEqual(canonical(b));
        return;
      }
      expect(Changes.safeParse(changes).success).toBe(true);
      const r = applyChanges(a, changes);
      expect(r.ok).toBe(true);
      if (!r.ok) return;
      expect(canonical(r.doc)).toEqual(canonical(b));
      // and its inverse brings the first draft back
      const back = applyChanges(r.doc, r.inverse);
      expect(back.ok && canonical(back.doc)).toEqual(canonical(a));
    }), { numRuns: 300 });
  });

  it('moves an entity by removing it and adding it after its new neighbour, leaving the others alone', () => {
    const e = (id: string) => ({ id, name: id.slice(0, 1) });
    const a: Json = { moments: [e(ids[0] ?? ''), e(ids[1] ?? ''), e(ids[2] ?? '')] };
    const b: Json = { moments: [e(ids[1] ?? ''), e(ids[2] ?? ''), e(ids[0] ?? '')] };
    expect(diffDrafts(a, b)).toEqual([
      { op: 'remove', collection: 'moments', id: ids[0] },
      { op: 'add', collection: 'moments', value: e(ids[0] ?? ''), after: ids[2] },
    ]);
  });
});
