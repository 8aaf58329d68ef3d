// Browser recording's silence auto-stop (game spec §4 "Voice loop"): the recorder hands over 4096-sample blocks; a
// block whose RMS is below 0.01 is silence and is not kept; more than 3000 ms of continuous silence stops recording.
// Time is counted from the samples themselves (block length / sample rate), so no clock is read.

export const SILENCE_RMS_THRESHOLD = 0.01;
export const SILENCE_BLOCK_SAMPLES = 4096;
export const SILENCE_AUTO_STOP_MS = 3000;

/** Root mean square of a block of samples in [-1, 1]; an empty block is silent (0). */
export function rms(block: ArrayLike<number>): number {
  if (block.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < block.length; i += 1) {
    const v = block[i] ?? 0;
    sum += v * v;
  }
  return Math.sqrt(sum / block.length);
}

export function isSilent(block: ArrayLike<number>): boolean {
  return rms(block) < SILENCE_RMS_THRESHOLD;
}

/** Milliseconds a block of `samples` lasts at `sampleRate` Hz (4096 samples at 44100 Hz is about 92.9 ms). */
export function blockMs(samples: number, sampleRate: number): number {
  return sampleRate > 0 ? (samples * 1000) / sampleRate : 0;
}

export interface SilenceDetector {
  /** Continuous silence so far, in milliseconds of audio. */
  readonly silentMs: number;
  readonly stopped: boolean;
}

export const INITIAL_SILENCE: SilenceDetector = { silentMs: 0, stopped: false };

export interface BlockDecision {
  readonly detector: SilenceDetector;
  /** Keep this block in the recording (only non-silent blocks are kept). */
  readonly keep: boolean;
  /** Stop recording now: the continuous silence has passed 3000 ms. */
  readonly stop: boolean;
}

/**
 * Decides one block. Silence at the very start counts too, so a player who never speaks is stopped after 3 s; the
 * recording is then empty and nothing is sent. Once stopped, later blocks are neither kept nor stop again.
 */
export function observeBlock(detector: SilenceDetector, block: ArrayLike<number>, sampleRate: number): BlockDecision {
  if (detector.stopped) return { detector, keep: false, stop: false };
  if (!isSilent(block)) return { detector: { silentMs: 0, stopped: false }, keep: true, stop: false };
  const silentMs = detector.silentMs + blockMs(block.length, sampleRate);
  const stop = silentMs > SILENCE_AUTO_STOP_MS;
  return { detector: { silentMs, stopped: stop }, keep: false, stop };
}

/** Cuts a stream of samples into the 4096-sample blocks the detector expects; the last block may be shorter. */
export function toBlocks(samples: ArrayLike<number>, size = SILENCE_BLOCK_SAMPLES): number[][] {
  const blocks: number[][] = [];
  for (let start = 0; start < samples.length; start += size) {
    const block: number[] = [];
    for (let i = start; i < Math.min(samples.length, start + size); i += 1) block.push(samples[i] ?? 0);
    blocks.push(block);
  }
  return blocks;
}
