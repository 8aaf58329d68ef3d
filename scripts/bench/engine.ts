// Engine throughput: a recorded random-play event log replayed through `step` (no brain, no I/O).
import { performance } from 'node:perf_hooks';
import { SeededRandom } from '../../engine/random.js';
import { GameEvent } from '../../engine/run/events.js';
import { initialState, type GameState } from '../../engine/run/state.js';
import { step } from '../../engine/run/step.js';
import { randomEvent } from '../../engine/run/test-bot.js';
import { testStory } from '../../engine/run/test-story.js';

export async function run(opts: { durationMs?: number } = {}): Promise<Record<string, unknown>> {
  const durationMs = opts.durationMs ?? 1500;
  const r = new SeededRandom(42);
  let s: GameState = initialState('bench-user', testStory.id, 7);
  const log: { ev: GameEvent; now: number }[] = [];
  let now = Date.UTC(2026, 0, 1);
  while (log.length < 2000) {
    const ev = GameEvent.parse(randomEvent(s, testStory, r));
    now += 1000;
    const res = step(s, ev, { now, story: testStory });
    if (res.ok) {
      s = res.state;
      log.push({ ev, now });
    }
  }
  let steps = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < durationMs) {
    let st = initialState('bench-user', testStory.id, 7);
    for (const { ev, now: t } of log) {
      const res = step(st, ev, { now: t, story: testStory });
      if (res.ok) st = res.state;
      steps++;
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  await Promise.resolve();
  return { engine_steps_per_second: Math.round(steps / seconds), steps_measured: steps, log_length: log.length };
}
