// The decode limiter: a bounded number of decodes at once, and the decodes of an utterance under way before a new one's.
import { describe, expect, it } from 'vitest';
import { DecodeLimiter } from './decode.js';

/** A task that runs until released, recording when it started. */
function gate(log: string[], name: string): { task: () => Promise<string>; release: () => void } {
  let release: () => void = () => undefined;
  const done = new Promise<void>((r) => (release = r));
  return {
    task: async () => {
      log.push(name);
      await done;
      return name;
    },
    release: () => release(),
  };
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('DecodeLimiter', () => {
  it('runs at most `limit` tasks at once, then the waiting ones by priority, in arrival order within one', async () => {
    const limiter = new DecodeLimiter(2);
    const log: string[] = [];
    const g = Object.fromEntries(['a', 'b', 'c', 'd', 'e', 'f'].map((n) => [n, gate(log, n)]));
    const runs = [
      limiter.run(g.a!.task), limiter.run(g.b!.task),
      limiter.run(g.c!.task, 0), limiter.run(g.d!.task, 1), limiter.run(g.e!.task, 0), limiter.run(g.f!.task, 1),
    ];
    await tick();
    expect(log).toEqual(['a', 'b']);
    expect(limiter.running).toBe(2);
    expect(limiter.waiting).toBe(4);
    expect(limiter.hasRoom()).toBe(false);
    g.a!.release();
    await tick();
    expect(log).toEqual(['a', 'b', 'd']);
    g.b!.release();
    g.d!.release();
    await tick();
    expect(log).toEqual(['a', 'b', 'd', 'f', 'c']);
    expect(limiter.running).toBe(2);
    for (const x of Object.values(g)) x.release();
    expect(await Promise.all(runs)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(log).toEqual(['a', 'b', 'd', 'f', 'c', 'e']);
    expect(limiter.running).toBe(0);
    expect(limiter.hasRoom(1)).toBe(true);
    expect(limiter.hasRoom(2)).toBe(false);
  });

  it('frees the slot of a task that fails', async () => {
    const limiter = new DecodeLimiter(1);
    await expect(limiter.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await limiter.run(() => Promise.resolve(7))).toBe(7);
    expect(limiter.running).toBe(0);
  });
});
