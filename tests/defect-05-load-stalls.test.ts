// Defect 5 of issue #14: `looptale load` hid 60-second stalls and still reported PASS. When a socket closed while a
// virtual player was between turns, the next send was silently dropped and the player waited out its 60 s timeout
// (after one kill -9, 27 of 30 players sent nothing for 60 s, yet the report said PASS). The tool now reconnects as
// `play` does, counts stalls (a player kept waiting more than --stall-s, 10 s by default) and fails on them.
// A TCP proxy stands between the tool and the server to break the network on cue.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { startTcpProxy } from './helpers/tcp-proxy.js';

const BIN = join(import.meta.dirname, '../bin/looptale.js');
let srv: TestServer;

beforeAll(async () => {
  srv = await startTestServer({ SEED_STORIES: 'true', STORIES_DIR: join(import.meta.dirname, '../fixtures/stories'), AUTH_RATE_LIMIT_SCALE: '100', HTTP_RATE_LIMIT: '100000', LOG_LEVEL: 'warn' });
});
afterAll(async () => srv?.close());

type Run = { code: number; out: string; seconds: number };
/**
 * Runs `looptale load` through `url`; `during` runs once the server has answered 8 turns and then none for 400 ms:
 * every player is between turns (thinking).
 */
function load(url: string, during: () => void, ...extra: string[]): Promise<Run> {
  const t0 = Date.now();
  const turns0 = srv.services.metrics.turns;
  let seen = turns0;
  let quietSince = Date.now();
  const watch = setInterval(() => {
    const turns = srv.services.metrics.turns;
    if (turns !== seen) {
      seen = turns;
      quietSince = Date.now();
      return;
    }
    if (turns - turns0 < 8 || Date.now() - quietSince < 400) return;
    clearInterval(watch);
    during();
  }, 10);
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, 'load', '--url', url, '--clients', '4', '--ramp', '0.5', '--duration', '12', '--think-time', '2', ...extra], { timeout: 150_000 }, (error, stdout, stderr) => {
      clearInterval(watch);
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, out: `${stdout}\n${stderr}`, seconds: (Date.now() - t0) / 1000 });
    });
  });
}

describe('defect 5: the load tool reconnects between turns, counts stalls and fails on them', () => {
  it('reconnects right away when every connection is cut between turns: no 60 s wait, 0 stalls, PASS', async () => {
    const proxy = await startTcpProxy(srv.url);
    try {
      const r = await load(proxy.url, () => proxy.cutAll());
      expect(r.seconds, r.out).toBeLessThan(45);
      expect(r.code, r.out).toBe(0);
      expect(r.out).toMatch(/PASS/);
      expect(r.out).toMatch(/stalls 0 over 10 s/);
      expect(Number(/reconnects (\d+)/.exec(r.out)?.[1] ?? 0)).toBeGreaterThanOrEqual(1);
      expect(r.out).toMatch(/0 lost, 0 doubled/);
    } finally {
      await proxy.close();
    }
  }, 160_000);

  it('fails (exit 1) when the server keeps players waiting more than 10 s, and says how long', async () => {
    const proxy = await startTcpProxy(srv.url);
    try {
      const r = await load(proxy.url, () => proxy.hold(12_500));
      expect(r.code, r.out).toBe(1);
      expect(r.out).toMatch(/FAIL/);
      const stalls = Number(/stalls (\d+) over 10 s/.exec(r.out)?.[1] ?? 0);
      expect(stalls).toBeGreaterThanOrEqual(1);
      expect(r.out).toMatch(/longest wait \d+(\.\d+)? s/);
      // The stall says what the player went through: the send, and the answer that came 10+ s later.
      expect(r.out).toMatch(/waited \d+(\.\d+)? s for [^\n]*\n(\s+[\d.]+ s [^\n]+\n)*\s+[\d.]+ s (sent|resent) /);
      expect(r.out).toMatch(/\s+[\d.]+ s answer: GAME_OUTPUT after \d+ ms/);
    } finally {
      await proxy.close();
    }
  }, 160_000);
});
