// The golden ticket award popup (game spec §9, accounts spec §4): shown when the awarded flag is set; after 8000 ms
// it fades for 500 ms and is gone; a click on the backdrop dismisses it sooner.
import { type TimerEffect, type TimerFired, type Transition, startTimer } from './effects.js';

export const GOLDEN_TICKET_POPUP_MS = 8000;
export const GOLDEN_TICKET_FADE_MS = 500;
export const GOLDEN_TICKET_TIMER = 'golden_ticket_popup';

export const GOLDEN_TICKET_TEXT = {
  title: 'GOLDEN TICKET EARNED!',
  body: 'Congratulations on your first Rank A! You can now permanently recruit this character!',
  hint: 'Visit the Catalogue to view and redeem your Golden Tickets',
} as const;

export type GoldenTicketPopup = 'hidden' | 'shown' | 'fading';

export type GoldenTicketEvent =
  | { readonly type: 'awarded' }
  | { readonly type: 'backdrop_click' }
  | TimerFired;

export type GoldenTicketTransition = Transition<GoldenTicketPopup, TimerEffect>;

// A backdrop click fades the popup out like the timeout does (the same 500 ms), so both dismissals look the same.
export function transitionGoldenTicketPopup(state: GoldenTicketPopup, event: GoldenTicketEvent): GoldenTicketTransition {
  switch (event.type) {
    case 'awarded':
      if (state === 'shown') return { state, effects: [] };
      return { state: 'shown', effects: [startTimer(GOLDEN_TICKET_TIMER, GOLDEN_TICKET_POPUP_MS)] };
    case 'backdrop_click':
      if (state !== 'shown') return { state, effects: [] };
      // Re-arming the key replaces the 8000 ms timer.
      return { state: 'fading', effects: [startTimer(GOLDEN_TICKET_TIMER, GOLDEN_TICKET_FADE_MS)] };
    case 'timer':
      if (event.key !== GOLDEN_TICKET_TIMER) return { state, effects: [] };
      if (state === 'shown') return { state: 'fading', effects: [startTimer(GOLDEN_TICKET_TIMER, GOLDEN_TICKET_FADE_MS)] };
      if (state === 'fading') return { state: 'hidden', effects: [] };
      return { state, effects: [] };
  }
}

/** Whether the popup is drawn at all (while 'fading' it is drawn fading out). */
export function goldenTicketVisible(state: GoldenTicketPopup): boolean {
  return state !== 'hidden';
}
