// rememberSkip drops entries 5000 ms old or more (state format 3): for any moments and any times that move forward,
// recentlySkipped answers exactly as with the format-2 log (the last 100 entries, however old).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AUTO_SKIP_CACHE_SIZE, recentlySkipped, rememberSkip, type SkipLogEntry } from './auto-skip.js';

function rememberV2(log: readonly SkipLogEntry[], momentId: string, now: number): SkipLogEntry[] {
  const next = [...log, { blueprint_moment_id: momentId, at: now }];
  return next.length > AUTO_SKIP_CACHE_SIZE ? next.slice(next.length - AUTO_SKIP_CACHE_SIZE) : next;
}

describe('the auto-skip log', () => {
  it('answers recentlySkipped as the 100-entry log did, and keeps only the last 5000 ms', () => {
    const op = fc.record({ moment: fc.constantFrom('a', 'b', 'c', 'd'), gap: fc.integer({ min: 0, max: 7000 }), skip: fc.boolean() });
    fc.assert(fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
      let now = 1_000_000;
      let v2: SkipLogEntry[] = [];
      let v3: SkipLogEntry[] = [];
      for (const o of ops) {
        now += o.gap;
        for (const m of ['a', 'b', 'c', 'd']) expect(recentlySkipped(v3, m, now)).toBe(recentlySkipped(v2, m, now));
        if (o.skip) {
          v2 = rememberV2(v2, o.moment, now);
          v3 = rememberSkip(v3, o.moment, now);
          expect(v3.length).toBeLessThanOrEqual(AUTO_SKIP_CACHE_SIZE);
          expect(v3.every((e) => now - e.at < 5000)).toBe(true);
        }
      }
    }), { numRuns: 200 });
  });
});
