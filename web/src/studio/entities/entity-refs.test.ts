// Deleting and renaming characters, items and places with every reference following, on the lantern-keeper fixture:
// the result applies, parses and validates with no reference left dangling, and undoes exactly.
import { describe, expect, it } from 'vitest';
import { applyChanges, type Json } from '../../../../engine/authoring/apply.js';
import { validateStory } from '../../../../engine/story/validate.js';
import fixture from '../../../../fixtures/stories/lantern-keeper/story.json';
import { deleteChanges, renameChanges, textMentions, usesOf } from './entity-refs.js';

const doc = fixture as unknown as Json;
const NELL = 'aef8cd16-3baf-4279-b20a-3b1c5df00de9';
const MEDAL = 'db4569fd-e4b2-4e79-a424-afeeaa0b9fe2';
const QUAY = 'c005bad7-3b21-4086-9ab9-5c4463904795';

function applied(changes: Parameters<typeof applyChanges>[1]): Json {
  const r = applyChanges(doc, changes);
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.doc;
}
const refErrors = (d: Json) => validateStory(d).problems.filter((p) => p.severity === 'error' && /unknown|not found|no (character|item|place)/i.test(`${p.code} ${p.message}`));

describe('entity references', () => {
  it('finds every moment that names a character, and the story fields that name an item', () => {
    const uses = usesOf(doc, NELL);
    expect(uses.map((u) => u.name)).toEqual(expect.arrayContaining(['Nell at the Quay', 'Three Ways from the Quay', 'The Drowned Steps', 'At the Foot of the Tower']));
    expect(uses.find((u) => u.name === 'Nell at the Quay')?.fields).toContain('character_id');
    expect(usesOf(doc, MEDAL).some((u) => u.collection === 'story' && u.fields.includes('rank_rewards'))).toBe(true);
  });

  it('deletes a character, an item and a place with their references: the story still validates with no dangling id, and undo restores it exactly', () => {
    for (const [collection, id] of [['characters', NELL], ['items', MEDAL], ['places', QUAY]] as const) {
      const changes = deleteChanges(doc, collection, id);
      expect(changes.at(-1)).toEqual({ op: 'remove', collection, id });
      const after = applied(changes);
      expect(JSON.stringify(after)).not.toContain(id);
      expect(refErrors(after)).toEqual([]);
      const r = applyChanges(doc, changes);
      if (!r.ok) throw new Error('not applied');
      const back = applyChanges(r.doc, r.inverse);
      expect(back.ok && back.doc).toEqual(doc);
    }
  });

  it('renames a character everywhere its name is written as a word, English and French apart, and leaves longer words alone', () => {
    const base = applied([{ op: 'set', path: ['moments', '7be1748d-2b03-4e6f-a8bf-daa260794fde', 'hint'], value: { en: 'Ask Nell Cardew, not Nell Cardewson.', fr: 'Demandez à Nell Cardew.' } }]);
    const mentions = textMentions(base, 'characters', NELL, { en: 'Nell Cardew' }, { en: 'Nell Marsh' });
    expect(mentions.some((m) => m.field === 'hint')).toBe(true);
    const r = applyChanges(base, renameChanges(base, 'characters', NELL, { en: 'Nell Marsh' }, true));
    if (!r.ok) throw new Error('not applied');
    const moment = (r.doc.moments as Json[]).find((m) => m.id === '7be1748d-2b03-4e6f-a8bf-daa260794fde');
    expect(moment?.hint).toEqual({ en: 'Ask Nell Marsh, not Nell Cardewson.', fr: 'Demandez à Nell Marsh.' });
    expect((r.doc.characters as Json[]).find((c) => c.id === NELL)?.name).toBe('Nell Marsh');
    expect(JSON.stringify(r.doc)).not.toMatch(/Nell Cardew(?!son)/);
    // Without the texts: the name only.
    expect(renameChanges(base, 'characters', NELL, { en: 'Nell Marsh' }, false)).toHaveLength(1);
  });

  it('renames an item in each language: the English name in English texts, the French name in French texts', () => {
    const lantern = '7e9e00c7-4a04-4528-b4c2-82b65060c4a4';
    const changes = renameChanges(doc, 'items', lantern, { en: 'Gale Lantern', fr: 'Lanterne de grain' }, true);
    const after = applied(changes);
    const text = JSON.stringify(after);
    expect(text).not.toContain('Storm Lantern');
    expect(text).not.toContain('Lanterne tempête');
    expect((after.items as Json[]).find((i) => i.id === lantern)?.name).toEqual({ en: 'Gale Lantern', fr: 'Lanterne de grain' });
    expect(changes.length).toBeGreaterThan(1);
  });
});
