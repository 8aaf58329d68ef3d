// The shape every client machine shares: `transition(state, event) -> { state, effects }` (xstate's pure transition).
// Effects are plain data the CLI or the web app runs; a machine never runs one, never reads a clock and never throws
// for an expected refusal. Timers are effects too, and a timer firing comes back as a `{ type: 'timer', key }` event.

/** Arm the timer `key` to fire after `ms`. Arming a key that is already armed replaces it (the old one never fires). */
export interface StartTimer {
  readonly type: 'start_timer';
  readonly key: string;
  readonly ms: number;
}

/** Disarm the timer `key`; cancelling a key that is not armed does nothing. */
export interface CancelTimer {
  readonly type: 'cancel_timer';
  readonly key: string;
}

export type TimerEffect = StartTimer | CancelTimer;

/** What the runner feeds back when an armed timer fires. Machines ignore keys they are not waiting for. */
export interface TimerFired {
  readonly type: 'timer';
  readonly key: string;
}

/** An expected refusal (a click at the wrong moment, an empty card id): a value with a namespaced code. */
export interface Refusal {
  readonly code: string;
  readonly message: string;
}

export interface Transition<S, F> {
  readonly state: S;
  readonly effects: readonly F[];
  /** Set when the event was refused; the state is then unchanged. */
  readonly refused?: Refusal;
}

export function startTimer(key: string, ms: number): StartTimer {
  return { type: 'start_timer', key, ms };
}

export function cancelTimer(key: string): CancelTimer {
  return { type: 'cancel_timer', key };
}

export function timerFired(key: string): TimerFired {
  return { type: 'timer', key };
}

export function isTimerEffect(effect: { readonly type: string }): effect is TimerEffect {
  return effect.type === 'start_timer' || effect.type === 'cancel_timer';
}

/** The unchanged state with no effects: what a machine answers to an event it has nothing to do with. */
export function stay<S>(state: S): Transition<S, never> {
  return { state, effects: [] };
}

export function refuse<S>(state: S, code: string, message: string): Transition<S, never> {
  return { state, effects: [], refused: { code, message } };
}
