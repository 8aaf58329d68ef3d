// #14, test:load's drops run: its virtual players sent their next recorded answer ~1 s after each GAME_OUTPUT, before
// the reply's speech had even begun, and sent a recording the moment it was chosen: far more recognition work than
// people give. With pace 'player' (the default) a player says each line in its real length and hears the reply's
// speech to its end first. These check how long a player listens, on a simulated clock (milliseconds to run).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Ears, loadClips, type EarClock } from './runner.js';
import { mp3DurationMs } from './speech-duration.js';

const AUDIO = join(import.meta.dirname, '../../fixtures/audio/lantern-keeper/en');
const clip = (name: string): { bytes: Uint8Array; seconds: number } => ({
  bytes: new Uint8Array(readFileSync(join(AUDIO, `${name}.mp3`))),
  seconds: (JSON.parse(readFileSync(join(AUDIO, `${name}.json`), 'utf8')) as { seconds: number }).seconds,
});

/** A clock that jumps ahead on every sleep; `at` runs callbacks when their time is passed. */
function simulated(): EarClock & { at: (ms: number, fn: () => void) => void } {
  let t = 0;
  const due: { ms: number; fn: () => void }[] = [];
  return {
    now: () => t,
    sleep: (ms) => {
      t += ms;
      for (const d of due.filter((x) => x.ms <= t)) {
        due.splice(due.indexOf(d), 1);
        d.fn();
      }
      return Promise.resolve();
    },
    at: (ms, fn) => due.push({ ms, fn }),
  };
}

describe('players listen to the reply before they answer (pace player)', () => {
  it('reads how long an MP3 reply lasts from its frames', () => {
    for (const name of ['dead-end.en.l3.m3-175-50', 'dead-end.en.l4.f2-150-70-noise20']) {
      const c = clip(name);
      // LAME adds its encoder delay and padding: a few frames more than the speech.
      expect(Math.abs(mp3DurationMs(c.bytes) - c.seconds * 1000)).toBeLessThan(150);
    }
    expect(mp3DurationMs(new Uint8Array(8000))).toBe(1000); // not MP3: counted at 64 kbps
  });

  it('waits until every chunk of the reply has played, chunks that came while it played included', async () => {
    const a = clip('dead-end.en.l3.m3-175-50');
    const b = clip('dead-end.en.l4.m3-175-50');
    const clock = simulated();
    const ears = new Ears(clock);
    ears.chunk('in-1', 0, a.bytes);
    clock.at(1000, () => ears.chunk('in-1', clock.now(), b.bytes)); // the second sentence, synthesised meanwhile
    const listened = await ears.listen('in-1');
    expect(listened).toBeGreaterThanOrEqual(mp3DurationMs(a.bytes) + mp3DurationMs(b.bytes));
    expect(listened).toBeLessThan(mp3DurationMs(a.bytes) + mp3DurationMs(b.bytes) + 1000);
  });

  it('does not wait for speech from a server it has never heard speak, and waits a while once it has', async () => {
    const clock = simulated();
    const ears = new Ears(clock);
    expect(await ears.listen('silent')).toBe(0);
    ears.chunk('in-1', 0, clip('dead-end.en.l3.m3-175-50').bytes);
    await ears.listen('in-1');
    const t0 = clock.now();
    clock.at(t0 + 1500, () => ears.chunk('in-2', clock.now(), clip('dead-end.en.l4.m3-175-50').bytes)); // speech starts late
    const listened = await ears.listen('in-2');
    expect(listened).toBeGreaterThanOrEqual(1500 + mp3DurationMs(clip('dead-end.en.l4.m3-175-50').bytes));
    // A reply whose speech never comes: the player answers from the text after a bounded wait.
    const gaveUp = await ears.listen('in-3');
    expect(gaveUp).toBeGreaterThan(0);
    expect(gaveUp).toBeLessThanOrEqual(5_100);
  });

  it('stops hearing a reply when it starts saying the next line (what still plays is cut, later chunks dropped)', async () => {
    const long = clip('dead-end.en.l3.m3-175-50');
    const short = clip('dead-end.en.l4.m7-200-35');
    const clock = simulated();
    const hearing = { heardAny: false };
    const ears = new Ears(clock, hearing);
    ears.speak('in-1');
    ears.chunk('in-1', 0, long.bytes);
    ears.speak('in-2'); // talks over the first reply at once
    ears.chunk('in-1', clock.now(), long.bytes); // its next sentence: not heard
    ears.chunk('in-2', clock.now(), short.bytes);
    const listened = await ears.listen('in-2');
    expect(listened).toBeGreaterThanOrEqual(mp3DurationMs(short.bytes));
    expect(listened).toBeLessThan(mp3DurationMs(short.bytes) + 1000);
    // Another player of the same load now waits for speech too: the server has been heard speaking.
    const other = new Ears(simulated(), hearing);
    expect(await other.listen('in-9')).toBeGreaterThan(0);
  });

  it('says each recorded line for as long as it lasts', () => {
    const clips = loadClips(AUDIO);
    const line = clips.get('When does the light go dark?');
    expect(line?.seconds).toBeGreaterThan(1);
    expect(line?.seconds).toBeLessThan(4);
  });
});
