// Redeeming one golden ticket (accounts spec §2 "Golden Ticket modal", §4 "Redemption flow states", §5, §9).
// Redeem burns the ticket for 2000 ms ('Redeeming...', disabled); then the redeem step begins: 1500 ms later the
// flow is retrieving, 2500 ms after that selecting; a chosen card is confirmed, then created; success shows a
// 3000 ms banner over the plain ticket view and refetches the ticket list.
import {
  type TimerEffect, type TimerFired, type Transition, cancelTimer, refuse, startTimer,
} from './effects.js';

export const BURN_ANIMATION_MS = 2000;
export const RETRIEVING_AFTER_MS = 1500;
export const SELECTING_AFTER_MS = 2500;
export const SUCCESS_BANNER_MS = 3000;

export const REDEMPTION_TIMERS = {
  burn: 'redemption:burn',
  retrieving: 'redemption:retrieving',
  selecting: 'redemption:selecting',
  banner: 'redemption:banner',
} as const;

export const REDEEM_BUTTON_TEXT = { idle: 'Redeem', busy: 'Redeeming...' } as const;

export const REDEMPTION_STATES = ['normal', 'retrieving', 'selecting', 'confirming', 'creating'] as const;
export type RedemptionState = (typeof REDEMPTION_STATES)[number];

export interface Redemption {
  readonly ticketId: string;
  readonly state: RedemptionState;
  /** Within 'normal': the ticket burning, then the redeem step's first 1500 ms. */
  readonly step: 'idle' | 'burning' | 'starting';
  readonly selectedCardId: string | null;
  readonly bannerVisible: boolean;
  /** The ticket is redeemed; it now sits among the redeemed tickets. */
  readonly redeemed: boolean;
}

export type RedemptionEvent =
  | { readonly type: 'redeem' }
  | { readonly type: 'choose'; readonly cardId: string }
  | { readonly type: 'confirm' }
  | { readonly type: 'cancel' }
  | { readonly type: 'succeeded' }
  /** The redemption failed (an error of accounts spec §8); it is logged and no message is shown. */
  | { readonly type: 'failed'; readonly message: string }
  | { readonly type: 'reset' }
  | TimerFired;

export type RedemptionEffect =
  | TimerEffect
  /** Fetch the run's cards for the picker ('Loading your cards...'). */
  | { readonly type: 'load_cards'; readonly ticketId: string }
  | { readonly type: 'redeem_card'; readonly ticketId: string; readonly cardId: string }
  | { readonly type: 'refetch_tickets' }
  | { readonly type: 'log'; readonly message: string };

export type RedemptionTransition = Transition<Redemption, RedemptionEffect>;

export function initialRedemption(ticketId: string): Redemption {
  return { ticketId, state: 'normal', step: 'idle', selectedCardId: null, bannerVisible: false, redeemed: false };
}

// The spec disables the button during the burn; we keep it disabled until the flow is back to the plain ticket view,
// so that a second press during the redeem step's first 1500 ms cannot start a second redemption.
export function redeemButton(r: Redemption): { readonly label: string; readonly disabled: boolean } | null {
  if (r.redeemed) return null;
  const busy = r.state !== 'normal' || r.step !== 'idle';
  return { label: busy ? REDEEM_BUTTON_TEXT.busy : REDEEM_BUTTON_TEXT.idle, disabled: busy };
}

/** The card picker shows from retrieving until the card is created. */
export function showsPicker(r: Redemption): boolean {
  return r.state !== 'normal';
}

export function transitionRedemption(r: Redemption, event: RedemptionEvent): RedemptionTransition {
  switch (event.type) {
    case 'redeem': return redeem(r);
    case 'choose': return choose(r, event.cardId);
    case 'confirm':
      if (r.state !== 'confirming' || r.selectedCardId === null) {
        return refuse(r, 'redemption/nothing_to_confirm', 'Choose a card first.');
      }
      return {
        state: { ...r, state: 'creating' },
        effects: [{ type: 'redeem_card', ticketId: r.ticketId, cardId: r.selectedCardId }],
      };
    case 'cancel':
      if (r.state !== 'confirming') return refuse(r, 'redemption/wrong_state', 'There is no choice to cancel.');
      return { state: { ...r, state: 'selecting', selectedCardId: null }, effects: [] };
    case 'succeeded':
      if (r.state !== 'creating') return { state: r, effects: [] };
      return {
        state: { ...initialRedemption(r.ticketId), redeemed: true, bannerVisible: true },
        effects: [startTimer(REDEMPTION_TIMERS.banner, SUCCESS_BANNER_MS), { type: 'refetch_tickets' }],
      };
    // Back to selecting with the selection cleared, as after a cancel: the player picks again knowingly.
    case 'failed':
      if (r.state !== 'creating') return { state: r, effects: [] };
      return { state: { ...r, state: 'selecting', selectedCardId: null }, effects: [{ type: 'log', message: event.message }] };
    case 'reset': return reset(r);
    case 'timer': return timer(r, event.key);
  }
}

function redeem(r: Redemption): RedemptionTransition {
  if (r.redeemed) return refuse(r, 'redemption/already_redeemed', 'Invalid ticket or ticket already redeemed');
  if (r.state !== 'normal' || r.step !== 'idle') return refuse(r, 'redemption/busy', 'The ticket is already being redeemed.');
  return { state: { ...r, step: 'burning' }, effects: [startTimer(REDEMPTION_TIMERS.burn, BURN_ANIMATION_MS)] };
}

function choose(r: Redemption, cardId: string): RedemptionTransition {
  if (r.state !== 'selecting') return refuse(r, 'redemption/wrong_state', 'Cards can be chosen only while selecting.');
  const id = cardId.trim();
  if (id === '') return refuse(r, 'redemption/empty_card', 'The card selection must be a non-empty card id.');
  return { state: { ...r, state: 'confirming', selectedCardId: id }, effects: [] };
}

function timer(r: Redemption, key: string): RedemptionTransition {
  if (key === REDEMPTION_TIMERS.burn && r.state === 'normal' && r.step === 'burning') {
    return {
      state: { ...r, step: 'starting' },
      effects: [startTimer(REDEMPTION_TIMERS.retrieving, RETRIEVING_AFTER_MS), { type: 'load_cards', ticketId: r.ticketId }],
    };
  }
  if (key === REDEMPTION_TIMERS.retrieving && r.state === 'normal' && r.step === 'starting') {
    return {
      state: { ...r, state: 'retrieving', step: 'idle' },
      effects: [startTimer(REDEMPTION_TIMERS.selecting, SELECTING_AFTER_MS)],
    };
  }
  if (key === REDEMPTION_TIMERS.selecting && r.state === 'retrieving') {
    return { state: { ...r, state: 'selecting' }, effects: [] };
  }
  if (key === REDEMPTION_TIMERS.banner && r.bannerVisible) return { state: { ...r, bannerVisible: false }, effects: [] };
  return { state: r, effects: [] };
}

function reset(r: Redemption): RedemptionTransition {
  const effects: RedemptionEffect[] = [];
  if (r.step === 'burning') effects.push(cancelTimer(REDEMPTION_TIMERS.burn));
  if (r.step === 'starting') effects.push(cancelTimer(REDEMPTION_TIMERS.retrieving));
  if (r.state === 'retrieving') effects.push(cancelTimer(REDEMPTION_TIMERS.selecting));
  return { state: { ...r, state: 'normal', step: 'idle', selectedCardId: null }, effects };
}
