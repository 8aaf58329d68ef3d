// Changing a moment's type: offered with the fields that would go, refused with the reason when the type needs more.
import { describe, expect, it } from 'vitest';
import { applyChanges, type Json } from '../../../../engine/authoring/apply.js';
import { validateStory } from '../../../../engine/story/validate.js';
import fixture from '../../../../fixtures/stories/lantern-keeper/story.json';
import { typeChanges, typeOptions } from './type-change.js';

const doc = fixture as unknown as Json;
const REWARD = (doc.moments as Json[]).find((m) => m.id === '7be1748d-2b03-4e6f-a8bf-daa260794fde') as Json;

describe('type change', () => {
  it('lists every other type, with the fields a Reward moment would lose', () => {
    const options = typeOptions(REWARD);
    expect(options.map((o) => o.type)).not.toContain('Reward');
    expect(options).toHaveLength(11);
    const battle = options.find((o) => o.type === 'Battle');
    expect(battle).toMatchObject({ drops: ['rewards'], refused: null });
    // A moment the format refuses whatever its type (an empty name) is offered no type.
    const broken = typeOptions({ ...REWARD, name: { en: '' } });
    expect(broken.every((o) => o.refused !== null && o.refused.startsWith('name.en:'))).toBe(true);
  });

  it('changes the type and drops those fields in one step: the story still parses', () => {
    const battle = typeOptions(REWARD).find((o) => o.type === 'Battle');
    if (!battle) throw new Error('no Battle option');
    const r = applyChanges(doc, typeChanges(String(REWARD.id), battle));
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    const m = (r.doc.moments as Json[]).find((x) => x.id === REWARD.id);
    expect(m?.type).toBe('Battle');
    expect(m && 'rewards' in m).toBe(false);
    expect(validateStory(r.doc).problems.filter((p) => p.code.startsWith('schema') || p.code.startsWith('format'))).toEqual([]);
  });
});
