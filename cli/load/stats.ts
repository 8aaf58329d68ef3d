// Latency statistics for the load harness.
export type Summary = { n: number; p50: number | null; p95: number | null; p99: number | null; max: number | null; mean: number | null };

export function summarize(values: readonly number[]): Summary {
  if (values.length === 0) return { n: 0, p50: null, p95: null, p99: null, max: null, mean: null };
  const s = [...values].sort((a, b) => a - b);
  const q = (p: number): number => Math.round((s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? 0) * 100) / 100;
  return { n: s.length, p50: q(50), p95: q(95), p99: q(99), max: Math.round((s[s.length - 1] ?? 0) * 100) / 100, mean: Math.round((s.reduce((a, b) => a + b, 0) / s.length) * 100) / 100 };
}

export function isLoopback(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
