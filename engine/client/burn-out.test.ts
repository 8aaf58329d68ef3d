import { describe, expect, it } from 'vitest';
import { Simulator } from './timers.js';
import {
  BURN_OUT_MS, NO_BURN_OUT, isBurning, isHidden, transitionBurnOut, visibleCharacters,
} from './burn-out.js';

const driver = () => new Simulator(transitionBurnOut, NO_BURN_OUT);

const hp = (character_id: string, character_current_health: number) => ({ character_id, character_current_health });

describe('burn-out', () => {
  it('burns a character at zero health for 2000 ms, then hides it', () => {
    expect(BURN_OUT_MS).toBe(2000);
    const d = driver().send({ type: 'health', characters: [hp('a', 3), hp('b', 0)] });
    expect(isBurning(d.state, 'b')).toBe(true);
    expect(visibleCharacters(d.state, [hp('a', 3), hp('b', 0)]).map((c) => c.character_id)).toEqual(['a', 'b']);
    d.wait(1999);
    expect(isHidden(d.state, 'b')).toBe(false);
    d.wait(1);
    expect(isHidden(d.state, 'b')).toBe(true);
    expect(visibleCharacters(d.state, [hp('a', 3), hp('b', 0)]).map((c) => c.character_id)).toEqual(['a']);
  });

  it('shows the animation once per character', () => {
    const d = driver().send({ type: 'health', characters: [hp('b', 0)] });
    d.send({ type: 'health', characters: [hp('b', -2)] });
    expect(d.wheel.timers).toHaveLength(1);
    d.wait(2000).send({ type: 'health', characters: [hp('b', 0)] });
    expect(d.state).toEqual({ burning: [], hidden: ['b'] });
    expect(d.wheel.timers).toHaveLength(0);
  });

  it('hides characters already burned out on load without animating them', () => {
    const d = driver().send({ type: 'already_burned_out', characterIds: ['c'] }).send({ type: 'health', characters: [hp('c', 0)] });
    expect(d.state).toEqual({ burning: [], hidden: ['c'] });
  });

  it('reset brings everyone back', () => {
    const d = driver().send({ type: 'health', characters: [hp('b', 0)] }).send({ type: 'reset' });
    expect(d.state).toEqual(NO_BURN_OUT);
    expect(d.wheel.timers).toEqual([]);
  });
});
