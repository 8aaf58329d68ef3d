// How long an MP3 plays, from its frame headers alone (no decoding): a player's audio longer than the limit is refused
// before a single sample is decoded. A 2 MB MP3 of 2,000 s at 8 kbps decoded whole took ~0.8 s of CPU; walking its
// ~28,000 headers takes about a millisecond, and the walk stops as soon as the limit is passed.
//
// Frames are followed header to header. Bytes that are not a frame (a damaged stretch, junk put there to hide frames
// from this count) are skipped the way a decoder resynchronises: the next position where two frames follow each other
// counts again. Free-format streams (no bitrate in the header) cannot be walked: the count stops there, and the
// decoder's own limit (mp3-decode-worker.js stops at the limit) covers the rest.

/** Bitrates (kbps) by [MPEG-1 or not][layer I, II, III][index]. */
const BITRATES: readonly (readonly (readonly number[])[])[] = [
  [ // MPEG-2 and 2.5
    [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
    [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  ],
  [ // MPEG-1
    [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
    [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
    [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  ],
];
const RATES = [44100, 48000, 32000];

export type FrameHeader = { bytes: number; samples: number; sampleRate: number };

/** The frame header at `at`, or null when there is none (or a free-format one, whose length the header does not give). */
export function frameAt(b: Uint8Array, at: number): FrameHeader | null {
  if (at + 4 > b.length) return null;
  const b1 = b[at + 1] ?? 0;
  const b2 = b[at + 2] ?? 0;
  if (b[at] !== 0xff || (b1 & 0xe0) !== 0xe0) return null;
  const version = (b1 >> 3) & 3; // 0: MPEG-2.5, 2: MPEG-2, 3: MPEG-1
  const layer = (b1 >> 1) & 3; // 3: I, 2: II, 1: III
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 3;
  if (version === 1 || layer === 0 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return null;
  const mpeg1 = version === 3;
  const layerIndex = 3 - layer; // 0: I, 1: II, 2: III
  const kbps = BITRATES[mpeg1 ? 1 : 0]?.[layerIndex]?.[bitrateIndex] ?? 0;
  const sampleRate = (RATES[rateIndex] ?? 0) / (mpeg1 ? 1 : version === 2 ? 2 : 4);
  const padding = (b2 >> 1) & 1;
  const samples = layerIndex === 0 ? 384 : layerIndex === 1 || mpeg1 ? 1152 : 576;
  const bytes = layerIndex === 0
    ? (Math.floor((12 * kbps * 1000) / sampleRate) + padding) * 4
    : Math.floor(((samples / 8) * kbps * 1000) / sampleRate) + padding;
  return bytes >= 4 ? { bytes, samples, sampleRate } : null;
}

/** Where the audio starts: after an ID3v2 tag, if any. */
function audioStart(b: Uint8Array): number {
  if (b.length < 10 || b[0] !== 0x49 || b[1] !== 0x44 || b[2] !== 0x33) return 0;
  const size = (((b[6] ?? 0) & 0x7f) << 21) | (((b[7] ?? 0) & 0x7f) << 14) | (((b[8] ?? 0) & 0x7f) << 7) | ((b[9] ?? 0) & 0x7f);
  const footer = ((b[5] ?? 0) & 0x10) !== 0 ? 10 : 0;
  return 10 + size + footer;
}

export type Mp3Duration = { seconds: number; frames: number; overLimit: boolean };

/** The duration the frame headers give, stopping once it passes `maxSeconds` (overLimit). */
export function mp3Duration(b: Uint8Array, maxSeconds = Infinity): Mp3Duration {
  let at = audioStart(b);
  let seconds = 0;
  let frames = 0;
  let inSync = false;
  while (at + 4 <= b.length) {
    const h = frameAt(b, at);
    // Out of sync, a header counts only when another frame follows it (or it ends the bytes exactly).
    const next = h && !inSync ? at + h.bytes : -1;
    if (h && (inSync || next === b.length || frameAt(b, next) !== null)) {
      seconds += h.samples / h.sampleRate;
      frames++;
      if (seconds > maxSeconds) return { seconds, frames, overLimit: true };
      at += h.bytes;
      inSync = true;
    } else {
      at++;
      inSync = false;
    }
  }
  return { seconds, frames, overLimit: false };
}
