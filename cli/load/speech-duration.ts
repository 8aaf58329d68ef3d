// How long a character's reply (AUDIO_ANSWER: MP3) takes to play, read from its MPEG frame headers (no decoding): the
// load harness's players listen to it before they answer, as a person does. Layer III only (what the server encodes);
// anything else counts at 64 kbps (the server's default bitrate).
const BITRATES_V1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const BITRATES_V2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const RATES_V1 = [44100, 48000, 32000];
const FALLBACK_KBPS = 64;

/** Milliseconds of audio in MP3 bytes (the sum of the frames' durations). */
export function mp3DurationMs(bytes: Uint8Array): number {
  let i = 0;
  // ID3v2 tag: 10-byte header, then a syncsafe size.
  if (bytes.length >= 10 && bytes[0] === 0x49 && bytes[1] === 0x44 && bytes[2] === 0x33) {
    i = 10 + (((bytes[6] ?? 0) & 0x7f) << 21 | ((bytes[7] ?? 0) & 0x7f) << 14 | ((bytes[8] ?? 0) & 0x7f) << 7 | ((bytes[9] ?? 0) & 0x7f));
  }
  let seconds = 0;
  let frames = 0;
  while (i + 4 <= bytes.length) {
    const b1 = bytes[i + 1] ?? 0;
    const b2 = bytes[i + 2] ?? 0;
    if (bytes[i] !== 0xff || (b1 & 0xe0) !== 0xe0) {
      i++;
      continue;
    }
    const version = (b1 >> 3) & 3; // 0 MPEG 2.5, 2 MPEG 2, 3 MPEG 1
    const layer = (b1 >> 1) & 3; // 1 = Layer III
    const kbps = (version === 3 ? BITRATES_V1 : BITRATES_V2)[(b2 >> 4) & 15] ?? 0;
    const base = RATES_V1[(b2 >> 2) & 3];
    if (version === 1 || layer !== 1 || !kbps || base === undefined) {
      i++;
      continue;
    }
    const rate = version === 3 ? base : version === 2 ? base / 2 : base / 4;
    const samples = version === 3 ? 1152 : 576;
    const length = Math.floor(((samples / 8) * kbps * 1000) / rate) + ((b2 >> 1) & 1);
    seconds += samples / rate;
    frames++;
    i += Math.max(1, length);
  }
  if (frames === 0) return Math.round((bytes.length * 8) / FALLBACK_KBPS);
  return Math.round(seconds * 1000);
}
