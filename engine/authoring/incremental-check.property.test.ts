// The incremental draft check equals the full one: random change sequences on the fixture stories and generated
// ones, one DraftChecker following the draft, and after every change its report == checkDraft's (refused, report,
// publishable, problem for problem, in order).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MOMENT_TYPES } from '../schema/enums.js';
import { storyArb } from '../story/arbitraries.js';
import { applyChange, type Json } from './apply.js';
import type { Change, ChangePath, Collection } from './change.js';
import { checkDraft } from './draft-check.js';
import { DraftChecker } from './incremental-check.js';

const ROOT = join(import.meta.dirname, '../../fixtures/stories');
const fixture = (name: string): Json => JSON.parse(readFileSync(join(ROOT, name, 'story.json'), 'utf8')) as Json;
const list = (doc: Json, name: string): Json[] => (Array.isArray(doc[name]) ? (doc[name] as Json[]) : []);
const COLLECTIONS = ['moments', 'characters', 'items', 'places'] as const;
const TYPES = [...MOMENT_TYPES, 'Nonsense'];

/** A step: which entity, which kind of change, and the random picks it needs (resolved against the draft then). */
const stepArb = fc.record({
  kind: fc.nat(15), pick: fc.nat(1000), other: fc.nat(1000), uuid: fc.uuid({ version: 4 }), text: fc.string({ maxLength: 12 }),
  fr: fc.boolean(), n: fc.integer({ min: -2, max: 5 }), keepRefused: fc.boolean(),
});
type Step = typeof stepArb extends fc.Arbitrary<infer T> ? T : never;

function changeFor(doc: Json, s: Step): Change | null {
  const moments = list(doc, 'moments');
  const chars = list(doc, 'characters');
  if (moments.length === 0) return null;
  const m = moments[s.pick % moments.length] as Json;
  const mid = String(m.id);
  const target = s.n < 0 ? s.uuid : String((moments[s.other % moments.length] as Json).id);
  const set = (path: ChangePath, value?: unknown): Change => (value === undefined ? { op: 'set', path } : { op: 'set', path, value });
  const text = s.fr ? { en: s.text || 'x', fr: 'fr' } : { en: s.text || 'x' };
  switch (s.kind) {
    case 0: return set(['moments', mid, 'goal'], text);
    case 1: return set(['moments', mid, 'name'], text);
    case 2: return set(['moments', mid, 'transitions'], s.n === 0 ? [] : [{ next_moment_id: target }]);
    case 3: return set(['first_moment_id'], target);
    case 4: return set(['moments', mid, 'skip_to_moment_id'], s.n === 1 ? undefined : target);
    case 5: return set(['moments', mid, 'type'], TYPES[s.other % TYPES.length]);
    case 6: return { op: 'remove', collection: 'moments', id: mid };
    case 7: return { op: 'add', collection: 'moments', value: { ...m, id: s.uuid, name: text }, after: s.n > 2 ? null : String((moments[s.other % moments.length] as Json).id) };
    case 8: return set(['moments', mid, 'show_after_run_number'], s.n);
    case 9: return set(['moments', mid, 'goal'], s.n);
    case 10: return set(['name'], s.text);
    case 11: {
      const c = chars[s.pick % Math.max(1, chars.length)];
      if (!c) return null;
      return s.n > 1 ? set(['characters', String(c.id), 'is_enrolled_by_default'], s.fr) : set(['characters', String(c.id), 'base_health'], s.n);
    }
    case 12: {
      const c = (COLLECTIONS[s.other % 4] as Collection);
      const e = list(doc, c)[s.pick % Math.max(1, list(doc, c).length)];
      return e ? { op: 'remove', collection: c, id: String(e.id) } : null;
    }
    case 13: return set(['moments', mid, 'character_id'], s.n < 0 ? s.uuid : chars[s.other % Math.max(1, chars.length)]?.id);
    case 14: return set(['moments', mid, 'max_number_of_characters'], s.n);
    default: return set(['catalogue', 'description'], s.fr ? text : s.text);
  }
}

const docs = fc.oneof(
  fc.constant(fixture('lantern-keeper')), fc.constant(fixture('clockwork-siege')),
  storyArb.map((s) => JSON.parse(JSON.stringify(s)) as Json),
);

describe('DraftChecker', () => {
  it('equals checkDraft after every change of a random sequence', () => {
    const total = { fast: 0, full: 0 };
    fc.assert(fc.property(docs, fc.array(stepArb, { minLength: 1, maxLength: 40 }), (start, steps) => {
      const checker = new DraftChecker();
      let doc = start;
      expect(checker.check(doc)).toEqual(checkDraft(doc));
      for (const s of steps) {
        const c = changeFor(doc, s);
        if (!c) continue;
        const applied = applyChange(doc, c);
        if (!applied.ok) continue;
        const full = checkDraft(applied.doc);
        expect(checker.check(applied.doc)).toEqual(full);
        if (full.refused.length === 0 || s.keepRefused) doc = applied.doc;
      }
      total.fast += checker.stats.fast;
      total.full += checker.stats.full;
    }), { numRuns: 150, seed: 3115 });
    // Most checks must take the fast path, or this would only compare the full validator with itself.
    expect(total.fast).toBeGreaterThan(total.full);
  });

  it('equals checkDraft on a draft whose parts fail their schema or break the file limits', () => {
    const doc = fixture('lantern-keeper');
    const checker = new DraftChecker();
    const moments = list(doc, 'moments');
    const broken: Json[] = [
      { ...doc, moments: [{ ...moments[0], goal: 5 }, ...moments.slice(1)] },
      { ...doc, moments: [{ ...moments[0], goal: { en: 'a\u0000b' } }, ...moments.slice(1)] },
      { ...doc, moments: [{ ...moments[0], goal: { en: '\ud800' } }, ...moments.slice(1)] },
      { ...doc, catalogue: { ...(doc.catalogue as Json), deep: JSON.parse(`${'['.repeat(40)}${']'.repeat(40)}`) as unknown } },
      { ...doc, moments: [moments[0], moments[0], ...moments.slice(1)] },
      { ...doc, moments: [] },
      { ...doc, extra: 1 },
    ];
    for (const b of broken) expect(checker.check(b)).toEqual(checkDraft(b));
    expect(checker.stats).toEqual({ fast: 0, full: broken.length });
  });

  it('checks a one-field change on the fast path', () => {
    const doc = fixture('lantern-keeper');
    const checker = new DraftChecker();
    checker.check(doc);
    const m = list(doc, 'moments')[1] as Json;
    const next = applyChange(doc, { op: 'set', path: ['moments', String(m.id), 'goal'], value: { en: 'A new goal' } });
    if (!next.ok) throw new Error('the change does not apply');
    expect(checker.check(next.doc)).toEqual(checkDraft(next.doc));
    expect(checker.stats).toEqual({ fast: 2, full: 0 });
  });
});
