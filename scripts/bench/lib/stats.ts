// Small statistics for the benchmarks: nearest-rank percentiles and rounding.

export type Summary = { n: number; p50: number | null; p95: number | null; p99: number | null; max: number | null; mean: number | null };

/** Nearest-rank percentile of sorted values (p in 0..100); null for no values. */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] ?? null;
}

/** n, p50, p95, p99, max and mean of the values, rounded to `digits`. */
export function summarize(values: readonly number[], digits = 2): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const r = (v: number | null): number | null => (v === null ? null : round(v, digits));
  const sum = sorted.reduce((a, b) => a + b, 0);
  return {
    n: sorted.length,
    p50: r(percentile(sorted, 50)),
    p95: r(percentile(sorted, 95)),
    p99: r(percentile(sorted, 99)),
    max: r(sorted.at(-1) ?? null),
    mean: r(sorted.length ? sum / sorted.length : null),
  };
}

export function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** a / b rounded, or null when either is missing or b is zero. */
export function ratio(a: number | null | undefined, b: number | null | undefined, digits = 2): number | null {
  if (a === null || a === undefined || b === null || b === undefined || b === 0) return null;
  return round(a / b, digits);
}
