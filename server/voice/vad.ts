// A simple energy detector on 10 ms frames: is there speech at all, and where. Used to answer silence at once, and to
// shorten long pauses so one request is one utterance for pocketsphinx (which cuts utterances at 0.5 s of silence).

const FRAME = 160; // 10 ms at 16 kHz

export type SpeechSpan = { start: number; end: number };

/** Frames louder than the noise floor by ~11 dB and than -40 dBFS count as speech. */
export function speechFrames(samples: Int16Array): boolean[] {
  const n = Math.floor(samples.length / FRAME);
  const rms = new Float64Array(n);
  for (let f = 0; f < n; f++) {
    let e = 0;
    for (let i = f * FRAME; i < (f + 1) * FRAME; i++) e += ((samples[i] ?? 0) / 32768) ** 2;
    rms[f] = Math.sqrt(e / FRAME);
  }
  const sorted = Float64Array.from(rms).sort();
  const floor = sorted[Math.floor(n * 0.1)] ?? 0;
  const threshold = Math.max(0.01, floor * 3.5);
  return Array.from(rms, (v) => v > threshold);
}

/**
 * The audio with silence trimmed to `keep` seconds at both ends and every pause longer than `maxPause` seconds
 * shortened to it; null when there is no speech (fewer than 50 ms of speech frames).
 */
export function compactSpeech(samples: Int16Array, opts: { keep?: number; maxPause?: number } = {}): Int16Array | null {
  const keep = Math.round(((opts.keep ?? 0.2) * 16000) / FRAME);
  const maxPause = Math.round(((opts.maxPause ?? 0.3) * 16000) / FRAME);
  const voiced = speechFrames(samples);
  if (voiced.filter(Boolean).length < 5) return null;
  const first = voiced.indexOf(true);
  const last = voiced.lastIndexOf(true);
  const keepFrame: boolean[] = voiced.map(() => false);
  for (let f = Math.max(0, first - keep); f <= Math.min(voiced.length - 1, last + keep); f++) keepFrame[f] = true;
  // Inside the speech, a pause keeps its first and last maxPause/2 frames.
  let f = first;
  while (f <= last) {
    if (voiced[f]) {
      f++;
      continue;
    }
    let g = f;
    while (g <= last && !voiced[g]) g++;
    if (g - f > maxPause) for (let k = f + Math.ceil(maxPause / 2); k < g - Math.floor(maxPause / 2); k++) keepFrame[k] = false;
    f = g;
  }
  const out = new Int16Array(keepFrame.filter(Boolean).length * FRAME);
  let at = 0;
  keepFrame.forEach((k, i) => {
    if (!k) return;
    out.set(samples.subarray(i * FRAME, (i + 1) * FRAME), at);
    at += FRAME;
  });
  return out;
}

/** Near-silence (a faint, fixed dither) rather than digital zeros, which upset pocketsphinx's features. */
export function quiet(seconds: number): Int16Array {
  const out = new Int16Array(Math.round(seconds * 16000));
  let s = 12345;
  for (let i = 0; i < out.length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    out[i] = ((s >>> 16) % 7) - 3;
  }
  return out;
}
