// A fixed-window rate limiter per key (client address or socket), bounded in memory.
export class RateLimiter {
  #windows = new Map<string, { start: number; count: number }>();

  constructor(readonly limit: number, readonly windowMs: number, readonly maxKeys = 100_000) {}

  allow(key: string, now: number): boolean {
    let w = this.#windows.get(key);
    if (!w || now - w.start >= this.windowMs) {
      if (!w && this.#windows.size >= this.maxKeys) this.#sweep(now);
      w = { start: now, count: 0 };
      this.#windows.set(key, w);
    }
    w.count++;
    return w.count <= this.limit;
  }

  /** Milliseconds until `key` may be allowed again (0 when it may now). */
  retryAfterMs(key: string, now: number): number {
    const w = this.#windows.get(key);
    if (!w || now - w.start >= this.windowMs || w.count < this.limit) return 0;
    return this.windowMs - (now - w.start);
  }

  #sweep(now: number): void {
    for (const [k, w] of this.#windows) if (now - w.start >= this.windowMs) this.#windows.delete(k);
    if (this.#windows.size >= this.maxKeys) this.#windows.clear();
  }
}
