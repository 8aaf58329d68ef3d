// RIFF/WAVE reading and writing. Reads PCM 8/16/24/32-bit, IEEE float 32/64-bit and WAVE_FORMAT_EXTENSIBLE, any rate
// and channel count, skipping chunks it does not need; writes the plain 44-byte mono 16-bit header that
// pocketsphinx and browsers expect.

/** Decoded audio: one Float32Array per channel, samples in [-1, 1]. */
export type Planar = { channels: Float32Array[]; sampleRate: number };
export type WavResult = { ok: true; audio: Planar } | { ok: false; code: 'audio/corrupt' | 'audio/unsupported'; message: string };

const FORMAT_PCM = 1;
const FORMAT_FLOAT = 3;
const FORMAT_EXTENSIBLE = 0xfffe;

const ascii = (b: Uint8Array, at: number): string => String.fromCharCode(b[at] ?? 0, b[at + 1] ?? 0, b[at + 2] ?? 0, b[at + 3] ?? 0);

/** True when the bytes start like a RIFF/WAVE file. */
export function looksLikeWav(bytes: Uint8Array): boolean {
  return bytes.length >= 12 && ascii(bytes, 0) === 'RIFF' && ascii(bytes, 8) === 'WAVE';
}

type Fmt = { format: number; channels: number; sampleRate: number; blockAlign: number; bits: number };

function corrupt(reason: string): WavResult {
  return { ok: false, code: 'audio/corrupt', message: `The audio could not be decoded as WAV: ${reason}.` };
}

function unsupported(reason: string): WavResult {
  return { ok: false, code: 'audio/unsupported', message: `This WAV encoding is not supported: ${reason}.` };
}

export function parseWav(bytes: Uint8Array): WavResult {
  if (!looksLikeWav(bytes)) return corrupt('no RIFF/WAVE header');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let fmt: Fmt | null = null;
  let data: { start: number; end: number } | null = null;
  let at = 12;
  while (at + 8 <= bytes.length) {
    const id = ascii(bytes, at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === 'fmt ') {
      if (size < 16 || body + 16 > bytes.length) return corrupt('the format chunk is truncated');
      let format = view.getUint16(body, true);
      if (format === FORMAT_EXTENSIBLE && size >= 40 && body + 26 <= bytes.length) format = view.getUint16(body + 24, true);
      fmt = {
        format, channels: view.getUint16(body + 2, true), sampleRate: view.getUint32(body + 4, true),
        blockAlign: view.getUint16(body + 12, true), bits: view.getUint16(body + 14, true),
      };
    } else if (id === 'data') {
      // Streamed recordings leave the size at 0 or 0xffffffff: take everything that follows.
      const end = size === 0 || size === 0xffffffff || body + size > bytes.length ? bytes.length : body + size;
      data = { start: body, end };
      break;
    }
    at = body + size + (size % 2);
  }
  if (!fmt) return corrupt('no format chunk');
  if (!data) return corrupt('no data chunk');
  const { format, channels, sampleRate, bits } = fmt;
  if (channels < 1 || channels > 64) return corrupt(`${channels} channels`);
  if (sampleRate < 1000 || sampleRate > 384_000) return unsupported(`sample rate ${sampleRate} Hz`);
  const bytesPerSample = bits / 8;
  const intOk = format === FORMAT_PCM && [8, 16, 24, 32].includes(bits);
  const floatOk = format === FORMAT_FLOAT && (bits === 32 || bits === 64);
  if (!intOk && !floatOk) return unsupported(`format code ${format} with ${bits} bits per sample`);
  const frameBytes = Math.max(fmt.blockAlign, bytesPerSample * channels);
  const frames = Math.floor((data.end - data.start) / frameBytes);
  const out = Array.from({ length: channels }, () => new Float32Array(frames));
  const read = sampleReader(view, format, bits);
  for (let f = 0; f < frames; f++) {
    const base = data.start + f * frameBytes;
    for (let c = 0; c < channels; c++) (out[c] as Float32Array)[f] = read(base + c * bytesPerSample);
  }
  return { ok: true, audio: { channels: out, sampleRate } };
}

function sampleReader(view: DataView, format: number, bits: number): (at: number) => number {
  if (format === FORMAT_FLOAT) return bits === 32 ? (at) => view.getFloat32(at, true) : (at) => view.getFloat64(at, true);
  switch (bits) {
    case 8: return (at) => (view.getUint8(at) - 128) / 128;
    case 16: return (at) => view.getInt16(at, true) / 32768;
    case 24: return (at) => ((view.getUint8(at) | (view.getUint8(at + 1) << 8) | (view.getInt8(at + 2) << 16)) / 8388608);
    default: return (at) => view.getInt32(at, true) / 2147483648;
  }
}

/** A mono 16-bit PCM WAV file with the canonical 44-byte header. */
export function encodeWav(samples: Int16Array, sampleRate: number): Uint8Array {
  const out = new Uint8Array(44 + samples.length * 2);
  const view = new DataView(out.buffer);
  const text = (at: number, s: string): void => {
    for (let i = 0; i < s.length; i++) view.setUint8(at + i, s.charCodeAt(i));
  };
  text(0, 'RIFF');
  view.setUint32(4, 36 + samples.length * 2, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, FORMAT_PCM, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  text(36, 'data');
  view.setUint32(40, samples.length * 2, true);
  for (let i = 0; i < samples.length; i++) view.setInt16(44 + i * 2, samples[i] ?? 0, true);
  return out;
}
