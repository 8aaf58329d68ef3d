import { describe, expect, it } from 'vitest';
import type { GameView } from '../../schema/views.js';
import { assembleBanner } from './assemble.js';
import type { TeamCard } from './model.js';

const card = (id: string, selected: boolean): TeamCard => ({
  id, name: id, attack: 1, health: 1, maxHealth: 1, cardType: 'Normal', properties: [], items: [], selected, burnedOut: false,
});
const view = (over: Partial<GameView>) => ({ moment_type: 'Assemble', max_number_of_characters: 2, ...over }) as GameView;

describe('assembleBanner', () => {
  it("counts the selected characters against the moment's maximum, in Assemble moments only", () => {
    const team = [card('a', true), card('b', false), card('c', true)];
    expect(assembleBanner({ view: view({}), team })).toEqual({ selected: 2, max: 2 });
    expect(assembleBanner({ view: view({}), team: [card('a', false)] })).toEqual({ selected: 0, max: 2 });
    expect(assembleBanner({ view: view({ moment_type: 'Battle' }), team })).toBeNull();
    expect(assembleBanner({ view: view({ max_number_of_characters: null }), team })).toBeNull();
    expect(assembleBanner({ view: null, team })).toBeNull();
  });
});
