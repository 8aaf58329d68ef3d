// The one door to time for the client runners (GameSocket, Link, GameController, the web hooks): they never call
// setTimeout or read a clock themselves. The CLI and the browser pass `systemClock`-like objects built from their
// globals; tests and replays pass the simulated clock of timers.ts, so "8000 ms later" is exact and instant.
import type { TimerEffect } from './effects.js';

export type TimerHandle = { readonly cancel: () => void };

export interface Clock {
  /** Milliseconds on a monotonic scale (a real runner reads its high-resolution timer). */
  now(): number;
  /** Calls `fire` once after `ms` milliseconds, unless cancelled first. */
  after(ms: number, fire: () => void): TimerHandle;
}

/**
 * Runs the timer effects of the client machines on a clock: `start_timer` arms (re-arming a key replaces it),
 * `cancel_timer` disarms, and a timer that fires is handed back as its key. One host per screen or connection.
 */
export class TimerHost {
  readonly #clock: Clock;
  readonly #fire: (key: string) => void;
  readonly #armed = new Map<string, TimerHandle>();

  constructor(clock: Clock, fire: (key: string) => void) {
    this.#clock = clock;
    this.#fire = fire;
  }

  /** Applies every timer effect among `effects` (other effects are ignored). */
  run(effects: readonly { readonly type: string }[]): void {
    for (const e of effects) {
      if (e.type !== 'start_timer' && e.type !== 'cancel_timer') continue;
      const t = e as TimerEffect;
      this.#armed.get(t.key)?.cancel();
      this.#armed.delete(t.key);
      if (t.type === 'start_timer') {
        const handle = this.#clock.after(t.ms, () => {
          if (this.#armed.get(t.key) !== handle) return;
          this.#armed.delete(t.key);
          this.#fire(t.key);
        });
        this.#armed.set(t.key, handle);
      }
    }
  }

  isArmed(key: string): boolean {
    return this.#armed.has(key);
  }

  /** Disarms everything (the screen closed). */
  clear(): void {
    for (const h of this.#armed.values()) h.cancel();
    this.#armed.clear();
  }
}
