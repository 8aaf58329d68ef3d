import { describe, expect, it } from 'vitest';
import { percentile, ratio, summarize } from './stats.js';

describe('bench stats', () => {
  it('takes nearest-rank percentiles', () => {
    const v = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(v, 50)).toBe(50);
    expect(percentile(v, 99)).toBe(99);
    expect(percentile(v, 100)).toBe(100);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNull();
  });

  it('summarizes unsorted values and guards ratios', () => {
    expect(summarize([3, 1, 2])).toEqual({ n: 3, p50: 2, p95: 3, p99: 3, max: 3, mean: 2 });
    expect(summarize([]).p99).toBeNull();
    expect(ratio(3, 2)).toBe(1.5);
    expect(ratio(3, 0)).toBeNull();
    expect(ratio(null, 2)).toBeNull();
  });
});
