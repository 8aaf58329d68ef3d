import { describe, expect, it } from 'vitest';
import { Simulator } from './timers.js';
import {
  FORGING_CHARACTER_CARD_MS, FORGING_ITEM_CARD_MS, NO_FORGING, transitionForging,
} from './forging.js';

const driver = () => new Simulator(transitionForging, NO_FORGING);

describe('equipment forging', () => {
  it('shows the character card 3000 ms, then the item card 5000 ms, then stops', () => {
    expect([FORGING_CHARACTER_CARD_MS, FORGING_ITEM_CARD_MS]).toEqual([3000, 5000]);
    const d = driver().send({ type: 'equipped', characterId: 'c', itemId: 'i' });
    expect(d.state.phase).toBe('character');
    d.wait(2999);
    expect(d.state.phase).toBe('character');
    d.wait(1);
    expect(d.state.phase).toBe('item');
    d.wait(4999);
    expect(d.state.phase).toBe('item');
    d.wait(1);
    expect(d.state.phase).toBe('hidden');
    d.wait(60_000);
    expect(d.state.phase).toBe('hidden');
  });

  it('keeps the forged image of the equip on show, whenever it arrives', () => {
    const d = driver().send({ type: 'equipped', characterId: 'c', itemId: 'i' }).wait(1000);
    d.send({ type: 'forged', characterId: 'other', itemId: 'i', imageUrl: 'x.jpg' });
    expect(d.state.imageUrl).toBeNull();
    d.send({ type: 'forged', characterId: 'c', itemId: 'i', imageUrl: 'forged.jpg' });
    expect(d.state).toMatchObject({ phase: 'character', imageUrl: 'forged.jpg' });
    // The image may also come first.
    const early = driver().send({ type: 'forged', characterId: 'c', itemId: 'i', imageUrl: 'f.jpg' }).send({ type: 'equipped', characterId: 'c', itemId: 'i' });
    expect(early.state).toMatchObject({ phase: 'character', imageUrl: 'f.jpg' });
  });

  it('ignores an equip without both ids, and closes on request', () => {
    expect(driver().send({ type: 'equipped', characterId: '', itemId: 'i' }).state).toEqual(NO_FORGING);
    const d = driver().send({ type: 'equipped', characterId: 'c', itemId: 'i' }).send({ type: 'close' });
    expect(d.state.phase).toBe('hidden');
    expect(d.wheel.timers).toEqual([]);
  });
});
