// Missing and outdated translations: counted over the whole story, outdated read from the history's diffs.
import { describe, expect, it } from 'vitest';
import type { Json } from '../../../../engine/authoring/apply.js';
import fixture from '../../../../fixtures/stories/lantern-keeper/story.json';
import { translationAges, translationGaps, translationState } from './translation-gaps.js';

const doc = fixture as unknown as Json;
const M = '171cf197-5042-49ab-b564-06b416e1400d';

function withMoment(patch: Json): Json {
  return { ...doc, moments: (doc.moments as Json[]).map((m) => (m.id === M ? { ...m, ...patch } : m)) };
}

describe('translation gaps', () => {
  it('counts texts and phrase lists with English and no French as missing', () => {
    const base = translationGaps(doc);
    expect(translationGaps(withMoment({ goal: { en: 'Find the keeper.' }, hint: { en: 'Look up.', fr: '' } }))).toEqual({ missing: base.missing + 2, outdated: 0 });
    expect(translationGaps(withMoment({ say: { en: ['hello there'] } })).missing).toBe(base.missing + 1);
  });

  it('flags French older than its English from the history, and clears the flag once the French is revised', () => {
    const d = withMoment({ goal: { en: 'Find the keeper, fast.', fr: 'Trouvez la gardienne.' } });
    const path = `moments/${M}/goal`;
    const history = [
      { revision: 1, diff: [{ path, before: undefined, after: { en: 'Find the keeper.', fr: 'Trouvez la gardienne.' } }] },
      { revision: 2, diff: [{ path, before: { en: 'Find the keeper.', fr: 'Trouvez la gardienne.' }, after: { en: 'Find the keeper, fast.', fr: 'Trouvez la gardienne.' } }] },
    ];
    const ages = translationAges(history);
    expect(ages.get(path)).toEqual({ en: 2, fr: 1 });
    expect(translationState({ en: 'Find the keeper, fast.', fr: 'Trouvez la gardienne.' }, path, ages)).toBe('outdated');
    expect(translationGaps(d, ages).outdated).toBe(1);
    const revised = translationAges([...history, { revision: 3, diff: [{ path, before: { en: 'Find the keeper, fast.', fr: 'Trouvez la gardienne.' }, after: { en: 'Find the keeper, fast.', fr: 'Trouvez vite la gardienne.' } }] }]);
    expect(translationGaps(d, revised).outdated).toBe(0);
  });

  it('tracks each line of a list of texts apart', () => {
    const path = `moments/${M}/opening`;
    const ages = translationAges([{ revision: 4, diff: [{ path, before: [{ en: 'A', fr: 'a' }, { en: 'B', fr: 'b' }], after: [{ en: 'A', fr: 'a' }, { en: 'B2', fr: 'b' }] }] }]);
    expect(translationState({ en: 'A', fr: 'a' }, `${path}/0`, ages)).toBe('ok');
    expect(translationState({ en: 'B2', fr: 'b' }, `${path}/1`, ages)).toBe('outdated');
  });
});
