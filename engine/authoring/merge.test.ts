import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyChanges, type Json } from './apply.js';
import type { Change } from './change.js';
import { checkDraft } from './draft-check.js';
import { conflictsOf } from './merge.js';

const lantern = JSON.parse(readFileSync(join(import.meta.dirname, '../../fixtures/stories/lantern-keeper/story.json'), 'utf8')) as Json;
const moments = lantern.moments as Json[];
const m0 = moments[0] as Json;
const m1 = moments[1] as Json;
const id0 = String(m0.id);
const id1 = String(m1.id);

function apply(doc: Json, cs: Change[]): Json {
  const r = applyChanges(doc, cs);
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.doc;
}

describe('two writers', () => {
  it('merges changes to different fields of one moment', () => {
    const theirs: Change[] = [{ op: 'set', path: ['moments', id0, 'hint'], value: { en: 'Look at the lamp.' } }];
    const mine: Change[] = [{ op: 'set', path: ['moments', id0, 'goal'], value: { en: 'Light the lamp.' } }];
    const now = apply(lantern, theirs);
    expect(conflictsOf(mine, theirs, lantern, now)).toEqual([]);
    const merged = apply(now, mine);
    expect((merged.moments as Json[])[0]).toMatchObject({ hint: { en: 'Look at the lamp.' }, goal: { en: 'Light the lamp.' } });
  });

  it('refuses the same field changed twice, with the base value, the value now and the value sent', () => {
    const theirs: Change[] = [{ op: 'set', path: ['moments', id0, 'opening'], value: [{ en: 'Theirs.' }] }];
    const mine: Change[] = [{ op: 'set', path: ['moments', id0, 'opening'], value: [{ en: 'Mine.' }] }];
    const now = apply(lantern, theirs);
    expect(conflictsOf(mine, theirs, lantern, now)).toEqual([{ path: `moments/${id0}/opening`, base: m0.opening, now: [{ en: 'Theirs.' }], sent: [{ en: 'Mine.' }] }]);
    // The same value sent twice is no conflict.
    expect(conflictsOf(theirs, theirs, lantern, now)).toEqual([]);
  });

  it('refuses an edit of a moment another writer removed, and a removal of a moment another writer edited', () => {
    const removed: Change[] = [{ op: 'remove', collection: 'moments', id: id1 }];
    const edit: Change[] = [{ op: 'set', path: ['moments', id1, 'goal'], value: { en: 'x' } }];
    expect(conflictsOf(edit, removed, lantern, apply(lantern, removed))).toMatchObject([{ path: `moments/${id1}/goal`, now: undefined }]);
    expect(conflictsOf(removed, edit, lantern, apply(lantern, edit))).toMatchObject([{ path: `moments/${id1}`, sent: undefined }]);
  });

  it('refuses a moment added after one another writer removed', () => {
    const removed: Change[] = [{ op: 'remove', collection: 'moments', id: id1 }];
    const added: Change[] = [{ op: 'add', collection: 'moments', value: { id: '00000000-0000-4000-8000-000000000001' }, after: id1 }];
    expect(conflictsOf(added, removed, lantern, apply(lantern, removed))).toMatchObject([{ path: 'moments/00000000-0000-4000-8000-000000000001' }]);
    expect(conflictsOf(removed, added, lantern, apply(lantern, added))).toMatchObject([{ path: `moments/${id1}` }]);
  });
});

describe('applying changes', () => {
  it('names the change and the id it cannot find, and changes nothing', () => {
    const r = applyChanges(lantern, [
      { op: 'set', path: ['moments', id0, 'goal'], value: { en: 'ok' } },
      { op: 'remove', collection: 'items', id: '00000000-0000-4000-8000-000000000000' },
    ]);
    expect(r).toEqual({ ok: false, problems: [{ path: '$.items', code: 'change/unknown_id', message: 'Change 2: No item 00000000-0000-4000-8000-000000000000 in the story.' }] });
    expect(applyChanges(lantern, [{ op: 'add', collection: 'moments', value: { id: id0 } }])).toMatchObject({ ok: false, problems: [{ code: 'change/duplicate_id' }] });
  });

  it('puts a removed moment back where it was', () => {
    const r = applyChanges(lantern, [{ op: 'remove', collection: 'moments', id: id1 }]);
    expect(r.ok && r.inverse).toEqual([{ op: 'add', collection: 'moments', value: m1, after: id0 }]);
    if (r.ok) expect(apply(r.doc, r.inverse)).toEqual(lantern);
  });
});

describe('what a draft may hold', () => {
  it('keeps an unfinished story (a moment that cannot complete) but refuses an unloadable one', () => {
    expect(checkDraft(lantern)).toMatchObject({ refused: [], publishable: true });
    const unfinished = checkDraft(apply(lantern, [{ op: 'set', path: ['moments', id1, 'transitions'], value: [] }]));
    expect(unfinished.refused).toEqual([]);
    expect(unfinished.publishable).toBe(false);
    expect(unfinished.report.some((p) => p.severity === 'error')).toBe(true);
    const badType = checkDraft(apply(lantern, [{ op: 'set', path: ['moments', id0, 'opening'], value: 'not a list' }]));
    expect(badType.refused).toMatchObject([{ path: '$.moments[0].opening', code: 'schema/invalid_type' }]);
    const dangling = checkDraft(apply(lantern, [{ op: 'set', path: ['first_moment_id'], value: '00000000-0000-4000-8000-000000000000' }]));
    expect(dangling.refused.map((p) => p.code)).toEqual(['ref/unknown_moment']);
  });
});
