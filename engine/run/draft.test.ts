import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoTime } from './draft.js';

describe('isoTime', () => {
  it('equals Date#toISOString', () => {
    fc.assert(fc.property(fc.integer({ min: -1e13, max: 3e14 }), (ms) => {
      expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    }), { numRuns: 2000 });
    for (const ms of [0, 1, 999, 86_399_999, 86_400_000, Date.UTC(2026, 0, 1), 253_402_300_799_999]) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    expect(() => isoTime(NaN)).toThrow(RangeError);
  });
});
