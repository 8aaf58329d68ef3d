import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { initialState } from '../run/state.js';
import { statesByStage } from '../sim/moment-states.js';
import { Story } from '../story/format.js';
import { momentStage } from './stage.js';

const load = (slug: string): Story => Story.parse(JSON.parse(readFileSync(`fixtures/stories/${slug}/story.json`, 'utf8')));
const siege = load('clockwork-siege');

describe('momentStage: the one stage of a moment', () => {
  it('is empty with no moment under way', () => {
    expect(momentStage(siege, initialState('u', siege.id, 1))).toEqual({ moment: null, stage: '', key: '' });
  });

  it('tells a defence by whom it is for and a riddle by its level, and its type stage agrees with the key', () => {
    const found = statesByStage(siege, { runs: 10 });
    const keys = found.map((x) => momentStage(siege, x.state));
    // Every state statesByStage files under a stage key is at that stage, for the moment it names.
    found.forEach((x, i) => {
      expect(keys[i]?.key).toBe(x.stage);
      expect(keys[i]?.moment?.id).toBe(x.moment.id);
      expect(keys[i]?.key.split(':')[0]).toBe(keys[i]?.stage);
    });
    const kinds = new Set(keys.map((k) => k.stage));
    expect([...kinds].sort()).toEqual(['', 'attack', 'bet', 'defend', 'riddle']);
    expect(keys.some((k) => k.key === 'defend:Orla Vance')).toBe(true);
    expect(keys.some((k) => /^riddle:.+/.test(k.key) && !k.key.endsWith('?'))).toBe(true);
  });
});
