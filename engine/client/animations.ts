// The small timed displays of the game screen (game spec §4, §9): card highlight 4000 ms, award display 5000 ms, the
// dialogue speaking state 500 ms late, and the moment re-fetch debounced by 500 ms. The burn, forging and golden
// ticket animations have files of their own.
import { type TimerEffect, type TimerFired, type Transition, cancelTimer, startTimer } from './effects.js';

export const CARD_HIGHLIGHT_MS = 4000;
export const AWARD_DISPLAY_MS = 5000;
export const DIALOGUE_SPEAKING_DELAY_MS = 500;
export const MOMENT_FETCH_DEBOUNCE_MS = 500;

export const highlightTimerKey = (cardId: string): string => `highlight:${cardId}`;
export const AWARD_TIMER = 'award';
export const SPEAKING_TIMER = 'dialogue:speaking';
export const MOMENT_FETCH_TIMER = 'moment:fetch';

// ---- Card highlight: any number of cards at once, each for 4000 ms from its latest highlight.

export interface CardHighlights {
  readonly cardIds: readonly string[];
}

export type HighlightEvent = { readonly type: 'highlight'; readonly cardId: string } | TimerFired;

export function transitionHighlights(state: CardHighlights, event: HighlightEvent): Transition<CardHighlights, TimerEffect> {
  if (event.type === 'highlight') {
    const cardIds = state.cardIds.includes(event.cardId) ? state.cardIds : [...state.cardIds, event.cardId];
    return { state: { cardIds }, effects: [startTimer(highlightTimerKey(event.cardId), CARD_HIGHLIGHT_MS)] };
  }
  const id = state.cardIds.find((c) => highlightTimerKey(c) === event.key);
  return id === undefined ? { state, effects: [] } : { state: { cardIds: state.cardIds.filter((c) => c !== id) }, effects: [] };
}

// ---- Award display: one award at a time for 5000 ms; awards that arrive meanwhile wait their turn, so none is lost.

export interface AwardDisplay<A extends { readonly id: string }> {
  readonly current: A | null;
  readonly queue: readonly A[];
}

export type AwardEvent<A> =
  | { readonly type: 'award'; readonly award: A }
  /** The player closed the award early. */
  | { readonly type: 'dismiss' }
  | TimerFired;

export function transitionAwards<A extends { readonly id: string }>(
  state: AwardDisplay<A>,
  event: AwardEvent<A>,
): Transition<AwardDisplay<A>, TimerEffect> {
  switch (event.type) {
    case 'award': {
      const known = state.current?.id === event.award.id || state.queue.some((a) => a.id === event.award.id);
      if (known) return { state, effects: [] };
      if (state.current === null) {
        return { state: { ...state, current: event.award }, effects: [startTimer(AWARD_TIMER, AWARD_DISPLAY_MS)] };
      }
      return { state: { ...state, queue: [...state.queue, event.award] }, effects: [] };
    }
    case 'dismiss':
      return state.current === null ? { state, effects: [] } : nextAward(state, [cancelTimer(AWARD_TIMER)]);
    case 'timer':
      return event.key === AWARD_TIMER && state.current !== null ? nextAward(state, []) : { state, effects: [] };
  }
}

function nextAward<A extends { readonly id: string }>(
  state: AwardDisplay<A>,
  effects: TimerEffect[],
): Transition<AwardDisplay<A>, TimerEffect> {
  const [head, ...rest] = state.queue;
  if (head === undefined) return { state: { current: null, queue: [] }, effects };
  return { state: { current: head, queue: rest }, effects: [...effects, startTimer(AWARD_TIMER, AWARD_DISPLAY_MS)] };
}

// ---- Dialogue speaking state: on 500 ms after dialogue audio starts, off at once when it stops. A line shorter than
// the delay never flips the character into its speaking pose.

export interface SpeakingIndicator {
  readonly audioActive: boolean;
  readonly speaking: boolean;
}

export const NOT_SPEAKING: SpeakingIndicator = { audioActive: false, speaking: false };

export type SpeakingEvent = { readonly type: 'audio_started' } | { readonly type: 'audio_stopped' } | TimerFired;

export function transitionSpeaking(state: SpeakingIndicator, event: SpeakingEvent): Transition<SpeakingIndicator, TimerEffect> {
  switch (event.type) {
    case 'audio_started':
      if (state.audioActive) return { state, effects: [] };
      return { state: { audioActive: true, speaking: false }, effects: [startTimer(SPEAKING_TIMER, DIALOGUE_SPEAKING_DELAY_MS)] };
    case 'audio_stopped':
      if (!state.audioActive) return { state, effects: [] };
      return { state: NOT_SPEAKING, effects: state.speaking ? [] : [cancelTimer(SPEAKING_TIMER)] };
    case 'timer':
      if (event.key !== SPEAKING_TIMER || !state.audioActive || state.speaking) return { state, effects: [] };
      return { state: { ...state, speaking: true }, effects: [] };
  }
}

// ---- Moment re-fetch: 500 ms after the last state change, one fetch.

export interface MomentFetch {
  readonly scheduled: boolean;
}

export type MomentFetchEvent = { readonly type: 'state_changed' } | TimerFired;
export type MomentFetchEffect = TimerEffect | { readonly type: 'fetch_moment' };

export function transitionMomentFetch(state: MomentFetch, event: MomentFetchEvent): Transition<MomentFetch, MomentFetchEffect> {
  if (event.type === 'state_changed') {
    // Re-arming the key replaces the timer: a burst of changes gives a single fetch after the last one.
    return { state: { scheduled: true }, effects: [startTimer(MOMENT_FETCH_TIMER, MOMENT_FETCH_DEBOUNCE_MS)] };
  }
  if (event.key !== MOMENT_FETCH_TIMER || !state.scheduled) return { state, effects: [] };
  return { state: { scheduled: false }, effects: [{ type: 'fetch_moment' }] };
}
