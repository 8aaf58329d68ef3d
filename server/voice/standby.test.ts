// pocketsphinx processes started ahead of their audio (decode.ts StandbyDecoders), with real pocketsphinx (installed by
// .ci/run): the same result as a process of its own, a bounded number waiting, a dead one replaced, none left after
// close(). About 5-20 s on a busy machine.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeSpeech } from './audio.js';
import { decodeOnce, StandbyDecoders, type DecodeFiles } from './decode.js';
import { DEFAULT_MODEL_DIR, isPocketsphinxAvailable } from './pocketsphinx.js';
import { phoneLoopFiles } from './verify.js';

const available = await isPocketsphinxAvailable();

/** Whether a process exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** pocketsphinx processes whose parent is one of these (the `sh` of each standby process). */
function pocketsphinxUnder(pids: readonly number[]): number[] {
  const out: number[] = [];
  for (const pid of pids) {
    try {
      const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
      out.push(...children.filter((c) => readFileSync(`/proc/${c}/comm`, 'utf8').startsWith('pocketsphinx')));
    } catch {
      // Gone.
    }
  }
  return out;
}

const until = async (check: () => boolean, ms = 60_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe.runIf(available.ok)('pocketsphinx processes started ahead', () => {
  let dir: string;
  let loop: DecodeFiles;
  let pcm: Int16Array;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'looptale-standby-test-'));
    loop = await phoneLoopFiles();
    const wav = readFileSync(resolve('fixtures/audio/lantern-keeper/en/dead-end.en.l3.m3-175-50.wav'));
    const speech = await decodeSpeech({ bytes: wav, format: 'wav' });
    if (!speech.ok) throw new Error(speech.message);
    pcm = speech.samples;
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  // Another configuration of the same loop: another beam (each configuration has its own processes).
  const variant = (i: number): string[] => ['-beam', `1e-${40 + i}`];

  it('decodes as a process of its own does, the second time with a process already waiting', async () => {
    const pool = new StandbyDecoders({ modelDir: DEFAULT_MODEL_DIR, size: 2 });
    try {
      const own = await decodeOnce(DEFAULT_MODEL_DIR, loop, pcm, { timeoutMs: 60_000, dir, args: [] });
      const first = await pool.decode({ files: loop, args: [] }, pcm, 60_000);
      expect(pool.cold).toBe(1);
      await until(() => pool.waitingPids().length === 1);
      const second = await pool.decode({ files: loop, args: [] }, pcm, 60_000);
      expect(pool.ready).toBe(1);
      expect(own?.length).toBeGreaterThan(0);
      expect(first).toEqual(own);
      expect(second).toEqual(own);
    } finally {
      pool.close();
    }
  }, 120_000);

  it('keeps at most `size` processes waiting, the configurations used last', async () => {
    const pool = new StandbyDecoders({ modelDir: DEFAULT_MODEL_DIR, size: 2 });
    try {
      for (let i = 0; i < 4; i++) await pool.decode({ files: loop, args: variant(i) }, pcm, 60_000);
      expect(pool.waitingPids().length).toBeLessThanOrEqual(2);
      expect(pool.spawned).toBeLessThanOrEqual(4 + 2 * 4);
      // The last configuration has a process waiting: used again, it is served at once.
      await until(() => pool.waitingPids().length === 2);
      await pool.decode({ files: loop, args: variant(3) }, pcm, 60_000);
      expect(pool.ready).toBe(1);
    } finally {
      pool.close();
    }
  }, 120_000);

  it('replaces a waiting process that died, and kills every process on close()', async () => {
    const pool = new StandbyDecoders({ modelDir: DEFAULT_MODEL_DIR, size: 2 });
    await pool.decode({ files: loop, args: [] }, pcm, 60_000);
    await until(() => pool.waitingPids().length === 1 && pocketsphinxUnder(pool.waitingPids()).length === 1);
    const [sh] = pool.waitingPids();
    const [sphinx] = pocketsphinxUnder(pool.waitingPids());
    process.kill(-(sh ?? 0), 'SIGKILL');
    await until(() => !alive(sphinx ?? 0));
    const after = await pool.decode({ files: loop, args: [] }, pcm, 60_000);
    expect(after?.length).toBeGreaterThan(0);
    await until(() => pool.waitingPids().length === 1 && pocketsphinxUnder(pool.waitingPids()).length === 1);
    const waiting = [...pool.waitingPids(), ...pocketsphinxUnder(pool.waitingPids())];
    pool.close();
    expect(pool.processes).toBe(0);
    await until(() => waiting.every((p) => !alive(p)));
    expect(await pool.decode({ files: loop, args: [] }, pcm, 60_000)).toBeNull();
  }, 120_000);
});
