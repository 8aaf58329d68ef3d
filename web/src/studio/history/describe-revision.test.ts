import { describe, expect, it } from 'vitest';
import { describeRevision } from './describe-revision.js';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const C = '33333333-3333-4333-8333-333333333333';
const doc = {
  moments: [{ id: A, name: { en: 'Opening' } }, { id: B, name: { en: 'The end' } }, { id: C, name: { en: 'Crossroad' } }],
  characters: [{ id: C, name: 'Mira' }],
};

describe('a revision in words', () => {
  it('says graph changes plainly: moments and transitions added and removed, skips, the first moment', () => {
    expect(describeRevision([
      { path: `moments/${C}`, after: { id: C, name: { en: 'Crossroad' }, transitions: [{ next_moment_id: B }] } },
      { path: `moments/${A}/transitions`, before: [{ next_moment_id: B }], after: [{ next_moment_id: C }] },
      { path: `moments/${B}`, before: { id: B, name: { en: 'Old end' }, transitions: [] } },
      { path: `moments/${A}/skip_to_moment_id`, after: B },
      { path: 'first_moment_id', before: A, after: C },
    ], doc)).toEqual([
      { kind: 'graph', text: 'Moment added: "Crossroad"' },
      { kind: 'graph', text: 'Transition added: "Crossroad" → "The end"' },
      { kind: 'graph', text: 'Transition added: "Opening" → "Crossroad"' },
      { kind: 'graph', text: 'Transition removed: "Opening" → "The end"' },
      { kind: 'graph', text: 'Moment removed: "Old end"' },
      { kind: 'graph', text: 'Skip added: "Opening" ⇢ "The end"' },
      { kind: 'graph', text: 'First moment is now "Crossroad" (was "Opening")' },
    ]);
  });

  it('gives fields their before and after as text, per language, lists as words, and marks long texts for a word diff', () => {
    const long = 'The beam sweeps the sea again, the pups sleep in the shadow of a little curtain.';
    const lines = describeRevision([
      { path: 'name', before: 'Old', after: 'New' },
      { path: 'catalogue/genre_tags', after: ['Mystery', 'Cozy'] },
      { path: `characters/${C}/base_health`, before: 10, after: 12 },
      { path: `moments/${A}/goal`, before: { en: long }, after: { en: `${long} Again.`, fr: 'Encore.' } },
      { path: 'catalogue/sound_intro', before: 'sounds/intro.mp3' },
    ], doc);
    expect(lines).toEqual([
      { kind: 'field', label: 'Name', before: 'Old', after: 'New', long: false },
      { kind: 'field', label: 'Catalogue: Genre tags', before: null, after: 'Mystery, Cozy', long: false },
      { kind: 'field', label: 'Character "Mira": Base health', before: '10', after: '12', long: false },
      { kind: 'field', label: 'Moment "Opening": Goal', before: `EN: ${long}`, after: `EN: ${long} Again.\nFR: Encore.`, long: true },
      { kind: 'field', label: 'Catalogue: Sound intro', before: 'sounds/intro.mp3', after: null, long: false },
    ]);
  });

  it('names an entity that is gone by the start of its id', () => {
    expect(describeRevision([{ path: 'items/44444444-4444-4444-8444-444444444444/name', before: { en: 'Key' }, after: { en: 'Lamp' } }], doc)[0])
      .toMatchObject({ label: 'Item "44444444…": Name' });
  });
});
