import { describe, expect, it } from 'vitest';
import { type TimerFired, type Transition, startTimer } from './effects.js';
import { Simulator, advance, applyTimerEffects, createTimerWheel, isArmed, nextTimer } from './timers.js';

type Log = readonly string[];
const echo = (state: Log, event: TimerFired | { type: 'arm'; key: string; ms: number }): Transition<Log, ReturnType<typeof startTimer>> =>
  event.type === 'timer' ? { state: [...state, event.key], effects: [] } : { state, effects: [startTimer(event.key, event.ms)] };

describe('simulated timers', () => {
  it('fires timers in due order, ties in arming order, and only once they are due', () => {
    let wheel = applyTimerEffects(createTimerWheel(), [startTimer('b', 20), startTimer('a', 10), startTimer('c', 20)]);
    expect(nextTimer(wheel)?.key).toBe('a');
    const r = advance(echo, [] as Log, wheel, 19);
    expect(r.state).toEqual(['a']);
    wheel = r.wheel;
    expect(advance(echo, r.state, wheel, 1).state).toEqual(['a', 'b', 'c']);
  });

  it('re-arming a key replaces it; cancelling disarms it', () => {
    let wheel = applyTimerEffects(createTimerWheel(), [startTimer('x', 10)]);
    wheel = advance(echo, [] as Log, wheel, 5).wheel;
    wheel = applyTimerEffects(wheel, [startTimer('x', 10)]);
    expect(advance(echo, [] as Log, wheel, 9).state).toEqual([]);
    expect(advance(echo, [] as Log, wheel, 10).state).toEqual(['x']);
    wheel = applyTimerEffects(wheel, [{ type: 'cancel_timer', key: 'x' }]);
    expect(isArmed(wheel, 'x')).toBe(false);
  });

  it('fires timers armed during an advance when they fall due within it', () => {
    const chain = (state: Log, event: TimerFired): Transition<Log, ReturnType<typeof startTimer>> =>
      ({ state: [...state, event.key], effects: event.key === 'one' ? [startTimer('two', 5)] : [] });
    const wheel = applyTimerEffects(createTimerWheel(), [startTimer('one', 5)]);
    expect(advance(chain, [] as Log, wheel, 10).state).toEqual(['one', 'two']);
    expect(advance(chain, [] as Log, wheel, 9).state).toEqual(['one']);
  });

  it('drives a machine through the Simulator', () => {
    const sim = new Simulator(echo, [] as Log).send({ type: 'arm', key: 'k', ms: 100 });
    expect(sim.wait(99).state).toEqual([]);
    expect(sim.wait(1).state).toEqual(['k']);
    expect(sim.wheel.now).toBe(100);
  });
});
