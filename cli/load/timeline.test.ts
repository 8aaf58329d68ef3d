// A stall in the load report said only "player 3 waited 10.4 s for turn": not whether the player was reconnecting,
// waiting for a restarted server, or waiting on the server's recognition or commit. Each stall now carries the
// player's events during the wait, the restarts that overlapped it and the turn's server stages.
import { describe, expect, it } from 'vitest';
import { formatStall, PlayerLog } from './timeline.js';

describe('a stall explains itself', () => {
  it('keeps the events of the wait only, the first and last when there are many', () => {
    let now = 0;
    const log = new PlayerLog(() => now);
    log.add('sent audio 1');
    now = 5;
    log.add('sent audio 2');
    for (let i = 0; i < 100; i++) {
      now = 5 + i * 0.1;
      log.add(`connect attempt ${i + 1} failed`);
    }
    const events = log.since(5);
    expect(events[0]?.what).toBe('sent audio 2');
    expect(events.length).toBe(41);
    expect(events.some((e) => /more/.test(e.what))).toBe(true);
    expect(events.at(-1)?.what).toBe('connect attempt 100 failed');
  });

  it('prints the restart that overlapped the wait, the timeline and the server stages', () => {
    const lines = formatStall(
      { player: 3, what: 'turn', waited_ms: 12_400, at_s: 20, input_id: 'abc', timeline: [{ at_s: 7.6, what: 'sent audio abc' }, { at_s: 20, what: 'answer: GAME_OUTPUT after 3000 ms' }], server_stages: { stt: 2500, commit: 90 } },
      [{ at_s: 2, down_ms: 1500 }, { at_s: 10, down_ms: 4000 }],
    );
    expect(lines[0]).toBe('  player 3 waited 12.4 s for turn at 20 s (from 7.6 s)');
    expect(lines).toContain('      server killed at 10 s, serving again at 14 s');
    expect(lines.join('\n')).not.toMatch(/killed at 2 s/);
    expect(lines).toContain('      7.6 s sent audio abc');
    expect(lines.at(-1)).toBe('      server stages (ms): stt 2500, commit 90');
  });
});

describe('reconnecting after a restart', () => {
  it('tries again within 200 ms however long the server has been down (it grew to 1 s)', async () => {
    const { reconnectDelayMs } = await import('./runner.js');
    const delays = Array.from({ length: 200 }, (_, i) => reconnectDelayMs(i + 1));
    expect(Math.max(...delays)).toBeLessThanOrEqual(200);
    expect(delays[0]).toBeGreaterThan(0);
  });
});

describe('a long outage in a timeline', () => {
  it('is one line per run of failed attempts, so the events before and after it stay', () => {
    let now = 10;
    const log = new PlayerLog(() => now);
    log.add('socket closed (1006)');
    for (let i = 1; i <= 150; i++) {
      now = 10 + i * 0.2;
      log.again('connect failed: ECONNREFUSED', `connect attempt ${i} failed (ECONNREFUSED); next in 200 ms`);
    }
    now = 41;
    log.add('socket open (attempt 151)');
    const events = log.since(10);
    expect(events.map((e) => e.what)).toEqual([
      'socket closed (1006)',
      'connect attempt 150 failed (ECONNREFUSED); next in 200 ms (150 times from 10.2 s)',
      'socket open (attempt 151)',
    ]);
    expect(events[1]?.at_s).toBe(40);
  });
});
