// Burned-out characters (game spec §4 "Battle"): a character at zero health burns out and is hidden, once. The burn
// animation plays for 2000 ms the first time the client sees the character at zero health; afterwards it stays hidden.
import { type TimerEffect, type TimerFired, type Transition, startTimer } from './effects.js';

export const BURN_OUT_MS = 2000;

export const burnTimerKey = (characterId: string): string => `burn:${characterId}`;

export interface BurnOut {
  /** Characters whose burn animation is playing. */
  readonly burning: readonly string[];
  /** Characters burned out and hidden (animation over, or already burned out when first seen). */
  readonly hidden: readonly string[];
}

export const NO_BURN_OUT: BurnOut = { burning: [], hidden: [] };

export interface CharacterHealth {
  readonly character_id: string;
  readonly character_current_health: number;
}

export type BurnOutEvent =
  /** The characters as the latest output or view has them (health stored after each action). */
  | { readonly type: 'health'; readonly characters: readonly CharacterHealth[] }
  /** Characters already burned out when the screen loads: hidden without an animation (it was shown before). */
  | { readonly type: 'already_burned_out'; readonly characterIds: readonly string[] }
  /** A new run: everyone is back. */
  | { readonly type: 'reset' }
  | TimerFired;

export type BurnOutTransition = Transition<BurnOut, TimerEffect>;

export function transitionBurnOut(state: BurnOut, event: BurnOutEvent): BurnOutTransition {
  switch (event.type) {
    case 'health': {
      const seen = new Set([...state.burning, ...state.hidden]);
      const atZero = event.characters.filter((c) => c.character_current_health <= 0).map((c) => c.character_id);
      const fresh = [...new Set(atZero)].filter((id) => !seen.has(id));
      if (fresh.length === 0) return { state, effects: [] };
      return {
        state: { ...state, burning: [...state.burning, ...fresh] },
        effects: fresh.map((id) => startTimer(burnTimerKey(id), BURN_OUT_MS)),
      };
    }
    case 'already_burned_out': {
      const seen = new Set([...state.burning, ...state.hidden]);
      const fresh = [...new Set(event.characterIds)].filter((id) => !seen.has(id));
      return { state: { ...state, hidden: [...state.hidden, ...fresh] }, effects: [] };
    }
    case 'reset':
      return { state: NO_BURN_OUT, effects: state.burning.map((id) => ({ type: 'cancel_timer', key: burnTimerKey(id) })) };
    case 'timer': {
      const id = state.burning.find((b) => burnTimerKey(b) === event.key);
      if (id === undefined) return { state, effects: [] };
      return { state: { burning: state.burning.filter((b) => b !== id), hidden: [...state.hidden, id] }, effects: [] };
    }
  }
}

export function isBurning(state: BurnOut, characterId: string): boolean {
  return state.burning.includes(characterId);
}

export function isHidden(state: BurnOut, characterId: string): boolean {
  return state.hidden.includes(characterId);
}

/** The characters to draw: burning ones still show (with the animation), hidden ones do not. */
export function visibleCharacters<C extends { readonly character_id: string }>(state: BurnOut, characters: readonly C[]): C[] {
  return characters.filter((c) => !isHidden(state, c.character_id));
}
