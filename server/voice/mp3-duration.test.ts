import { describe, expect, it } from 'vitest';
import { decodeMp3, encodeMp3, loadMp3Encoder } from './mp3.js';
import { mp3Duration } from './mp3-duration.js';

const tone = (rate: number, seconds: number): Int16Array => {
  const x = new Int16Array(rate * seconds);
  for (let i = 0; i < x.length; i++) x[i] = Math.round(4000 * Math.sin((2 * Math.PI * 220 * i) / rate));
  return x;
};

describe('mp3Duration', () => {
  it('reads the length from the frame headers, stops past the limit, and sees frames behind junk and an ID3 tag', async () => {
    await loadMp3Encoder();
    const mp3 = encodeMp3(tone(8000, 40), 8000, 8);
    expect(mp3Duration(mp3).seconds).toBeCloseTo(40, 0);
    const capped = mp3Duration(mp3, 30);
    expect(capped.overLimit).toBe(true);
    expect(capped.seconds).toBeLessThan(30.2);
    // An ID3v2 tag of 20 bytes, then 500 bytes of junk ahead of the frames: still 40 s.
    const tagged = new Uint8Array(10 + 20 + 500 + mp3.length);
    tagged.set([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 20]);
    tagged.fill(0x55, 30, 530);
    tagged.set(mp3, 530);
    expect(mp3Duration(tagged, 30).overLimit).toBe(true);
  });

  it('decodeMp3 refuses over the limit with the spec\'s message and decodes under it', async () => {
    await loadMp3Encoder();
    const mp3 = encodeMp3(tone(16000, 3), 16000, 32);
    expect(await decodeMp3(mp3, 2)).toEqual({ ok: false, code: 'audio/too_long', message: 'The audio is longer than 2 seconds.' });
    const r = await decodeMp3(mp3, 30);
    expect(r.ok && r.audio.sampleRate).toBe(16000);
  });
});
