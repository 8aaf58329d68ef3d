// A simulated clock for the client machines (xstate's SimulatedClock, as data). The CLI, the tests and replays run
// timer effects through it instead of setTimeout, so "2000 ms later" is exact and repeatable.
import type { Clock, TimerHandle } from './clock.js';
import {
  type TimerEffect, type TimerFired, type Transition, cancelTimer, isTimerEffect, startTimer, timerFired,
} from './effects.js';

export interface ArmedTimer {
  readonly key: string;
  readonly due: number;
  /** Arming order, so that timers due at the same instant fire in the order they were armed. */
  readonly seq: number;
}

export interface TimerWheel {
  readonly now: number;
  readonly seq: number;
  readonly timers: readonly ArmedTimer[];
}

export function createTimerWheel(now = 0): TimerWheel {
  return { now, seq: 0, timers: [] };
}

/** Applies the timer effects among `effects` (others are ignored); a re-armed key replaces its old timer. */
export function applyTimerEffects<F extends { readonly type: string }>(wheel: TimerWheel, effects: readonly F[]): TimerWheel {
  let next = wheel;
  for (const effect of effects) {
    if (!isTimerEffect(effect)) continue;
    next = applyOne(next, effect);
  }
  return next;
}

function applyOne(wheel: TimerWheel, effect: TimerEffect): TimerWheel {
  const others = wheel.timers.filter((t) => t.key !== effect.key);
  if (effect.type === 'cancel_timer') return { ...wheel, timers: others };
  const armed: ArmedTimer = { key: effect.key, due: wheel.now + Math.max(0, effect.ms), seq: wheel.seq };
  return { ...wheel, seq: wheel.seq + 1, timers: [...others, armed] };
}

export function isArmed(wheel: TimerWheel, key: string): boolean {
  return wheel.timers.some((t) => t.key === key);
}

/** The earliest armed timer, or null when nothing is armed. */
export function nextTimer(wheel: TimerWheel): ArmedTimer | null {
  let best: ArmedTimer | null = null;
  for (const t of wheel.timers) {
    if (best === null || t.due < best.due || (t.due === best.due && t.seq < best.seq)) best = t;
  }
  return best;
}

export interface Advanced<S, F> {
  readonly state: S;
  readonly wheel: TimerWheel;
  /** Every effect produced while advancing, timer effects included, in order. */
  readonly effects: readonly F[];
}

/**
 * Moves the clock forward by `ms`, firing each timer that falls due (earliest first) into `step`, and arming the
 * timers those steps ask for. A timer armed during the advance fires within it if it falls due in time.
 */
export function advance<S, F extends { readonly type: string }>(
  step: (state: S, event: TimerFired) => Transition<S, F>,
  state: S,
  wheel: TimerWheel,
  ms: number,
): Advanced<S, F> {
  const until = wheel.now + ms;
  let current = state;
  let clock = wheel;
  const effects: F[] = [];
  for (;;) {
    const due = nextTimer(clock);
    if (due === null || due.due > until) break;
    clock = { ...clock, now: due.due, timers: clock.timers.filter((t) => t !== due) };
    const result = step(current, timerFired(due.key));
    current = result.state;
    effects.push(...result.effects);
    clock = applyTimerEffects(clock, result.effects);
  }
  return { state: current, wheel: { ...clock, now: until }, effects };
}

/** Feeds one event at the current instant and arms the timers it asks for. */
export function feed<S, E, F extends { readonly type: string }>(
  step: (state: S, event: E) => Transition<S, F>,
  state: S,
  wheel: TimerWheel,
  event: E,
): Advanced<S, F> & { readonly refused?: Transition<S, F>['refused'] } {
  const result = step(state, event);
  return {
    state: result.state,
    wheel: applyTimerEffects(wheel, result.effects),
    effects: result.effects,
    ...(result.refused ? { refused: result.refused } : {}),
  };
}

/**
 * One machine on a simulated clock: `send` feeds an event now, `wait` lets time pass. `effects` holds what the last
 * call produced and `refused` its refusal code, if any. For tests, the CLI and replays.
 */
export class Simulator<S, E, F extends { readonly type: string }> {
  state: S;
  wheel: TimerWheel;
  effects: readonly F[];
  refused: string | undefined;

  constructor(
    private readonly step: (state: S, event: E | TimerFired) => Transition<S, F>,
    initial: S,
    initialEffects: readonly F[] = [],
  ) {
    this.state = initial;
    this.wheel = applyTimerEffects(createTimerWheel(), initialEffects);
    this.effects = initialEffects;
    this.refused = undefined;
  }

  send(event: E | TimerFired): this {
    const r = feed(this.step, this.state, this.wheel, event);
    this.state = r.state;
    this.wheel = r.wheel;
    this.effects = r.effects;
    this.refused = r.refused?.code;
    return this;
  }

  wait(ms: number): this {
    const r = advance(this.step, this.state, this.wheel, ms);
    this.state = r.state;
    this.wheel = r.wheel;
    this.effects = r.effects;
    this.refused = undefined;
    return this;
  }
}

/**
 * A `Clock` (clock.ts) on simulated time: callbacks fire only when `advance` moves time past them, earliest first,
 * in arming order at the same instant. Runners given this clock (the CLI's unattended play, tests, replays) are
 * deterministic; the timer wheel above is its bookkeeping.
 */
export class SimulatedClock implements Clock {
  #wheel: TimerWheel = createTimerWheel();
  #callbacks = new Map<string, () => void>();
  #next = 0;

  now(): number {
    return this.#wheel.now;
  }

  after(ms: number, fire: () => void): TimerHandle {
    const key = `t${this.#next++}`;
    this.#callbacks.set(key, fire);
    this.#wheel = applyTimerEffects(this.#wheel, [startTimer(key, ms)]);
    return {
      cancel: () => {
        this.#callbacks.delete(key);
        this.#wheel = applyTimerEffects(this.#wheel, [cancelTimer(key)]);
      },
    };
  }

  /** Timers still armed. */
  get pending(): number {
    return this.#wheel.timers.length;
  }

  /** Lets `ms` pass, firing what falls due (callbacks may arm more; those fire too if due in time). */
  advance(ms: number): void {
    const until = this.#wheel.now + ms;
    for (;;) {
      const due = nextTimer(this.#wheel);
      if (due === null || due.due > until) break;
      this.#wheel = { ...this.#wheel, now: due.due, timers: this.#wheel.timers.filter((t) => t !== due) };
      const fire = this.#callbacks.get(due.key);
      this.#callbacks.delete(due.key);
      fire?.();
    }
    this.#wheel = { ...this.#wheel, now: until };
  }

  /** Fires everything armed, however far ahead (at most `limit` timers, against runaway re-arming). */
  runAll(limit = 10_000): void {
    for (let i = 0; i < limit; i++) {
      const due = nextTimer(this.#wheel);
      if (due === null) return;
      this.advance(Math.max(0, due.due - this.#wheel.now));
    }
  }
}
