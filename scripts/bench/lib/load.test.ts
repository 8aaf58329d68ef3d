// The server bench's clock: every socket gets its own phase, and any group of consecutive sockets is spread over the
// whole period (the players of an earlier, smaller level must not all send, and so all finish their runs, at once).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { phase } from './load.js';

/** The largest gap between the sorted phases of sockets from..from+k-1, wrapping around the period. */
function largestGap(from: number, k: number, n: number): number {
  const p = Array.from({ length: k }, (_, j) => phase(from + j, n)).sort((a, b) => a - b);
  let gap = (p[0] ?? 0) + 1 - (p[p.length - 1] ?? 0);
  for (let j = 1; j < p.length; j++) gap = Math.max(gap, (p[j] ?? 0) - (p[j - 1] ?? 0));
  return gap;
}

describe('the server bench clock', () => {
  it('gives every socket a distinct phase in [0, 1)', () => {
    const all = Array.from({ length: 2000 }, (_, i) => phase(i, 2000));
    expect(all.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(new Set(all).size).toBe(2000);
  });

  it('spreads any run of consecutive sockets over the period: no gap above 3/k', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1900 }), fc.integer({ min: 10, max: 500 }), (from, k) => {
      expect(largestGap(from, k, 2000)).toBeLessThanOrEqual(3 / k);
    }));
  });

  it('the first 100 of 500 sockets are no longer packed into the first fifth of the period (the clock before)', () => {
    expect(Math.max(...Array.from({ length: 100 }, (_, i) => phase(i, 500)))).toBeGreaterThan(0.95);
  });
});
