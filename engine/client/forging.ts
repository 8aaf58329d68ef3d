// The equipment forging overlay (game spec §4 "Equip", §9): when an item is equipped on a character, the overlay shows
// the character card for 3000 ms, then the item card for 5000 ms, then stops. The forged image (EQUIPMENT_FORGING)
// may arrive at any point; the item card shows it once it is there.
import { type TimerEffect, type TimerFired, type Transition, cancelTimer, startTimer } from './effects.js';

export const FORGING_CHARACTER_CARD_MS = 3000;
export const FORGING_ITEM_CARD_MS = 5000;
export const FORGING_TIMER = 'forging';

export type ForgingPhase = 'hidden' | 'character' | 'item';

export interface Forging {
  readonly phase: ForgingPhase;
  readonly characterId: string | null;
  readonly itemId: string | null;
  readonly imageUrl: string | null;
}

export const NO_FORGING: Forging = { phase: 'hidden', characterId: null, itemId: null, imageUrl: null };

export type ForgingEvent =
  /** A GAME_OUTPUT awarded an equip: is_awarded with equipped_character_id and equipped_item_id. */
  | { readonly type: 'equipped'; readonly characterId: string; readonly itemId: string }
  /** EQUIPMENT_FORGING arrived with the forged image. */
  | { readonly type: 'forged'; readonly characterId: string; readonly itemId: string; readonly imageUrl: string }
  | { readonly type: 'close' }
  | TimerFired;

export type ForgingTransition = Transition<Forging, TimerEffect>;

// "Alternates character and item cards, then stops": we read this as one pass, character card then item card, so the
// overlay never outstays the 3000 + 5000 ms the spec gives it, even when the forged image never comes.
export function transitionForging(state: Forging, event: ForgingEvent): ForgingTransition {
  switch (event.type) {
    case 'equipped': {
      if (!event.characterId || !event.itemId) return { state, effects: [] };
      const sameEquip = state.characterId === event.characterId && state.itemId === event.itemId;
      if (sameEquip && state.phase !== 'hidden') return { state, effects: [] };
      const imageUrl = sameEquip ? state.imageUrl : null;
      return {
        state: { phase: 'character', characterId: event.characterId, itemId: event.itemId, imageUrl },
        effects: [startTimer(FORGING_TIMER, FORGING_CHARACTER_CARD_MS)],
      };
    }
    case 'forged':
      // Only the image of the equip on show (or about to be) is kept; a late image of an older equip is dropped.
      if (state.characterId !== null && (state.characterId !== event.characterId || state.itemId !== event.itemId)) {
        return { state, effects: [] };
      }
      return {
        state: { ...state, characterId: event.characterId, itemId: event.itemId, imageUrl: event.imageUrl || null },
        effects: [],
      };
    case 'close':
      if (state.phase === 'hidden') return { state, effects: [] };
      return { state: { ...state, phase: 'hidden' }, effects: [cancelTimer(FORGING_TIMER)] };
    case 'timer':
      if (event.key !== FORGING_TIMER) return { state, effects: [] };
      if (state.phase === 'character') {
        return { state: { ...state, phase: 'item' }, effects: [startTimer(FORGING_TIMER, FORGING_ITEM_CARD_MS)] };
      }
      if (state.phase === 'item') return { state: { ...state, phase: 'hidden' }, effects: [] };
      return { state, effects: [] };
  }
}
