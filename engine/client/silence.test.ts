import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  INITIAL_SILENCE, SILENCE_AUTO_STOP_MS, SILENCE_BLOCK_SAMPLES, SILENCE_RMS_THRESHOLD, type SilenceDetector, blockMs,
  isSilent, observeBlock, rms, toBlocks,
} from './silence.js';

const block = (value: number, n = SILENCE_BLOCK_SAMPLES): number[] => Array.from({ length: n }, () => value);

describe('silence auto-stop', () => {
  it('uses the spec constants', () => {
    expect([SILENCE_RMS_THRESHOLD, SILENCE_BLOCK_SAMPLES, SILENCE_AUTO_STOP_MS]).toEqual([0.01, 4096, 3000]);
  });

  it('computes RMS', () => {
    expect(rms([])).toBe(0);
    expect(rms([0.5, -0.5])).toBeCloseTo(0.5);
    expect(rms([3, 4])).toBeCloseTo(Math.sqrt(12.5));
  });

  it('calls a block silent when its RMS is below 0.01', () => {
    expect(isSilent(block(0.0099))).toBe(true);
    expect(isSilent([0.01])).toBe(false);
    expect(isSilent(block(0.0101))).toBe(false);
    expect(isSilent(block(-0.2))).toBe(false);
  });

  it('keeps only non-silent blocks and stops after more than 3000 ms of continuous silence', () => {
    // 4096 samples at 4096 Hz last exactly 1000 ms: three silent blocks make 3000 ms, not yet more than 3000.
    const rate = 4096;
    expect(blockMs(SILENCE_BLOCK_SAMPLES, rate)).toBe(1000);
    let d: SilenceDetector = INITIAL_SILENCE;
    const loud = observeBlock(d, block(0.3), rate);
    expect(loud).toMatchObject({ keep: true, stop: false });
    d = loud.detector;
    for (let i = 0; i < 3; i += 1) {
      const r = observeBlock(d, block(0), rate);
      expect(r).toMatchObject({ keep: false, stop: false });
      d = r.detector;
    }
    expect(d.silentMs).toBe(3000);
    const last = observeBlock(d, block(0, 1), rate);
    expect(last.stop).toBe(true);
    // After stopping nothing more is kept or stopped again.
    expect(observeBlock(last.detector, block(0.5), rate)).toMatchObject({ keep: false, stop: false });
  });

  it('resets the silence count when the player speaks again', () => {
    const rate = 4096;
    let d = observeBlock(INITIAL_SILENCE, block(0), rate).detector;
    d = observeBlock(d, block(0), rate).detector;
    d = observeBlock(d, block(0.2), rate).detector;
    expect(d.silentMs).toBe(0);
  });

  it('at 44100 Hz stops on the 33rd silent block (33 × 92.9 ms > 3000 ms, 32 × 92.9 ms < 3000 ms)', () => {
    let d = INITIAL_SILENCE;
    let stoppedAt = 0;
    for (let i = 1; i <= 40 && stoppedAt === 0; i += 1) {
      const r = observeBlock(d, block(0), 44100);
      d = r.detector;
      if (r.stop) stoppedAt = i;
    }
    expect(stoppedAt).toBe(33);
  });

  it('cuts samples into 4096-sample blocks', () => {
    const blocks = toBlocks(block(0.1, 10000));
    expect(blocks.map((b) => b.length)).toEqual([4096, 4096, 1808]);
  });

  it('property: the RMS lies between 0 and the largest magnitude, and a kept block is never silent', () => {
    const sample = fc.double({ min: -1, max: 1, noNaN: true });
    fc.assert(fc.property(fc.array(sample, { minLength: 1, maxLength: 512 }), (samples) => {
      const value = rms(samples);
      const peak = Math.max(...samples.map(Math.abs));
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThanOrEqual(peak + 1e-12);
      const r = observeBlock(INITIAL_SILENCE, samples, 44100);
      expect(r.keep).toBe(!isSilent(samples));
    }));
  });

  it('property: stop fires exactly once, when the run of silent blocks first passes 3000 ms', () => {
    const rate = 8000;
    fc.assert(fc.property(fc.array(fc.boolean(), { maxLength: 200 }), (loudness) => {
      let d = INITIAL_SILENCE;
      let run = 0;
      let stops = 0;
      let expectedStop = -1;
      loudness.forEach((loud, i) => {
        run = loud ? 0 : run + blockMs(SILENCE_BLOCK_SAMPLES, rate);
        if (expectedStop < 0 && run > SILENCE_AUTO_STOP_MS) expectedStop = i;
        const r = observeBlock(d, block(loud ? 0.5 : 0), rate);
        if (r.stop) { stops += 1; expect(i).toBe(expectedStop); }
        d = r.detector;
      });
      expect(stops).toBe(expectedStop >= 0 ? 1 : 0);
    }));
  });
});
