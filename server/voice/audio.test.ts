import { beforeAll, describe, expect, it } from 'vitest';
import { decodeSpeech, resample, STT_RATE, toInt16 } from './audio.js';
import { decodeMp3, encodeMp3, loadMp3Encoder, MP3_ENCODER_DELAY } from './mp3.js';

beforeAll(loadMp3Encoder);
import { encodeWav, parseWav } from './wav.js';

/** A chirp with a little seeded noise: unlike a pure tone, it lines up with itself at one lag only. */
function chirp(rate: number, seconds: number): Float32Array {
  const n = Math.round(rate * seconds);
  const x = new Float32Array(n);
  let phase = 0;
  let s = 7;
  for (let i = 0; i < n; i++) {
    const f = 200 + 1800 * (i / n);
    phase += (2 * Math.PI * f) / rate;
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    x[i] = 0.4 * Math.sin(phase) + 0.05 * ((s >>> 16) / 65536 - 0.5);
  }
  return x;
}

/** Best normalised correlation of b against a over lags 0..maxLag (b may start late). */
function bestCorrelation(a: ArrayLike<number>, b: ArrayLike<number>, maxLag: number): { corr: number; lag: number } {
  let best = { corr: -1, lag: 0 };
  const from = Math.floor(a.length * 0.2);
  const to = Math.floor(a.length * 0.6);
  for (let lag = 0; lag <= maxLag; lag++) {
    let ab = 0;
    let aa = 0;
    let bb = 0;
    for (let i = from; i < to; i++) {
      const x = a[i] ?? 0;
      const y = b[i + lag] ?? 0;
      ab += x * y;
      aa += x * x;
      bb += y * y;
    }
    const corr = ab / Math.sqrt(aa * bb || 1);
    if (corr > best.corr) best = { corr, lag };
  }
  return best;
}

/** A WAV file of any layout, written by hand (the encoder under test only writes mono 16-bit). */
function wavFile(channels: Float32Array[], rate: number, format: 'pcm8' | 'pcm16' | 'pcm24' | 'pcm32' | 'float32', extensible = false): Uint8Array {
  const bits = { pcm8: 8, pcm16: 16, pcm24: 24, pcm32: 32, float32: 32 }[format];
  const bytes = bits / 8;
  const frames = channels[0]?.length ?? 0;
  const fmtSize = extensible ? 40 : 16;
  const dataSize = frames * channels.length * bytes;
  const out = new Uint8Array(12 + 8 + fmtSize + 8 + 10 + 8 + dataSize);
  const v = new DataView(out.buffer);
  const text = (at: number, s: string): void => [...s].forEach((c, i) => v.setUint8(at + i, c.charCodeAt(0)));
  text(0, 'RIFF');
  v.setUint32(4, out.length - 8, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  v.setUint32(16, fmtSize, true);
  const code = format === 'float32' ? 3 : 1;
  v.setUint16(20, extensible ? 0xfffe : code, true);
  v.setUint16(22, channels.length, true);
  v.setUint32(24, rate, true);
  v.setUint32(28, rate * channels.length * bytes, true);
  v.setUint16(32, channels.length * bytes, true);
  v.setUint16(34, bits, true);
  if (extensible) {
    v.setUint16(36, 22, true);
    v.setUint16(38, bits, true);
    v.setUint16(44, code, true); // first two bytes of the sub-format GUID
  }
  let at = 20 + fmtSize;
  text(at, 'LIST'); // an extra chunk the reader must skip
  v.setUint32(at + 4, 10, true);
  at += 18;
  text(at, 'data');
  v.setUint32(at + 4, dataSize, true);
  at += 8;
  for (let f = 0; f < frames; f++) {
    for (const ch of channels) {
      const s = Math.max(-1, Math.min(1, ch[f] ?? 0));
      if (format === 'pcm8') v.setUint8(at, Math.round(s * 127) + 128);
      else if (format === 'pcm16') v.setInt16(at, Math.round(s * 32767), true);
      else if (format === 'pcm24') {
        const x = Math.round(s * 8388607);
        v.setUint8(at, x & 0xff);
        v.setUint8(at + 1, (x >> 8) & 0xff);
        v.setInt8(at + 2, x >> 16);
      } else if (format === 'pcm32') v.setInt32(at, Math.round(s * 2147483647), true);
      else v.setFloat32(at, s, true);
      at += bytes;
    }
  }
  return out;
}

describe('WAV', () => {
  for (const format of ['pcm8', 'pcm16', 'pcm24', 'pcm32', 'float32'] as const) {
    for (const [rate, channels] of [[8000, 1], [44100, 2], [48000, 1], [22050, 3]] as const) {
      it(`decodes ${format} at ${rate} Hz with ${channels} channel(s) to 16 kHz mono`, async () => {
        const src = chirp(rate, 1);
        const file = wavFile(Array.from({ length: channels }, () => src), rate, format, format === 'pcm24');
        const r = await decodeSpeech({ bytes: file, format: 'wav' });
        expect(r.ok).toBe(true);
        if (!r.ok) return;
        expect(Math.abs(r.samples.length - STT_RATE)).toBeLessThanOrEqual(1);
        const reference = resample(src, rate, STT_RATE);
        const { corr, lag } = bestCorrelation(Array.from(reference, (x) => x * 32768), r.samples, 4);
        expect(lag).toBe(0);
        expect(corr).toBeGreaterThan(format === 'pcm8' ? 0.98 : 0.999);
      });
    }
  }

  it('round-trips its own mono 16-bit files exactly', () => {
    const samples = toInt16(chirp(16000, 0.5));
    const r = parseWav(encodeWav(samples, 16000));
    expect(r.ok && r.audio.sampleRate).toBe(16000);
    if (r.ok) expect(toInt16(r.audio.channels[0] ?? new Float32Array())).toEqual(samples);
  });

  it('reads a streamed file whose data size is unknown (0xffffffff)', () => {
    const file = encodeWav(toInt16(chirp(16000, 0.25)), 16000);
    new DataView(file.buffer).setUint32(40, 0xffffffff, true);
    const r = parseWav(file);
    expect(r.ok && r.audio.channels[0]?.length).toBe(4000);
  });

  it('explains corrupt and unsupported files', async () => {
    expect(await decodeSpeech({ bytes: new TextEncoder().encode('definitely not audio'), format: 'wav' })).toEqual({
      ok: false, code: 'audio/corrupt', message: 'The audio could not be decoded as WAV: no RIFF/WAVE header.',
    });
    const truncated = encodeWav(toInt16(chirp(16000, 0.1)), 16000).slice(0, 30);
    expect(await decodeSpeech({ bytes: truncated, format: 'wav' })).toMatchObject({ ok: false, code: 'audio/corrupt' });
    const alaw = wavFile([chirp(8000, 0.1)], 8000, 'pcm8');
    new DataView(alaw.buffer).setUint16(20, 6, true); // A-law
    expect(await decodeSpeech({ bytes: alaw, format: 'wav' })).toEqual({
      ok: false, code: 'audio/unsupported', message: 'This WAV encoding is not supported: format code 6 with 8 bits per sample.',
    });
  });
});

describe('raw PCM16', () => {
  it('defaults to 16 kHz mono and honours the header fields', async () => {
    const mono = toInt16(chirp(16000, 0.5));
    const r = await decodeSpeech({ bytes: new Uint8Array(mono.buffer), format: 'pcm16' });
    expect(r.ok && r.samples).toEqual(mono);
    const src = chirp(48000, 0.5);
    const stereo = new Int16Array(src.length * 2);
    const asInt = toInt16(src);
    asInt.forEach((s, i) => {
      stereo[2 * i] = s;
      stereo[2 * i + 1] = s;
    });
    const r2 = await decodeSpeech({ bytes: new Uint8Array(stereo.buffer), format: 'pcm16', sample_rate: 48000, channels: 2, bits_per_sample: 16 });
    expect(r2.ok && r2.samples.length).toBe(8000);
    if (r2.ok) expect(bestCorrelation(resample(src, 48000, 16000), r2.samples, 2).corr).toBeGreaterThan(0.999);
  });

  it('refuses other sample sizes and absurd rates', async () => {
    const bytes = new Uint8Array(3200);
    expect(await decodeSpeech({ bytes, format: 'pcm16', bits_per_sample: 8 })).toEqual({ ok: false, code: 'audio/unsupported', message: 'Raw PCM audio must be 16-bit, not 8-bit.' });
    expect(await decodeSpeech({ bytes, format: 'pcm16', sample_rate: 100 })).toMatchObject({ ok: false, code: 'audio/unsupported' });
  });
});

describe('MP3', () => {
  it('encodes and decodes a chirp: same length (after the encoder delay) and the same signal', async () => {
    for (const rate of [16000, 22050, 24000, 44100]) {
      const src = chirp(rate, 2);
      const mp3 = encodeMp3(toInt16(src), rate, 64);
      const r = await decodeMp3(mp3);
      expect(r.ok).toBe(true);
      if (!r.ok) continue;
      const out = r.audio.channels[0] ?? new Float32Array();
      expect(r.audio.sampleRate).toBe(rate);
      expect(out.length - MP3_ENCODER_DELAY).toBeGreaterThanOrEqual(src.length);
      expect(out.length - MP3_ENCODER_DELAY - src.length).toBeLessThan(1152 * 2);
      const { corr, lag } = bestCorrelation(src, out, 1500);
      expect(lag).toBe(MP3_ENCODER_DELAY);
      expect(corr).toBeGreaterThan(0.95);
    }
  });

  it('decodes player MP3 to 16 kHz mono speech', async () => {
    const r = await decodeSpeech({ bytes: encodeMp3(toInt16(chirp(44100, 1.5)), 44100, 128), format: 'mp3' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    // 1.5 s of audio, plus the encoder delay and the padding of the last frame.
    expect(r.seconds).toBeGreaterThanOrEqual(1.5);
    expect(r.seconds).toBeLessThan(1.6);
    expect(Math.abs(r.samples.length - r.seconds * STT_RATE)).toBeLessThanOrEqual(1);
  });

  it('explains corrupt and empty audio', async () => {
    const junk = Uint8Array.from({ length: 4000 }, (_, i) => (i * 7919) % 251);
    expect(await decodeSpeech({ bytes: junk, format: 'mp3' })).toEqual({ ok: false, code: 'audio/corrupt', message: 'The audio could not be decoded as MP3.' });
    expect(await decodeSpeech({ bytes: new Uint8Array(0), format: 'mp3' })).toEqual({ ok: false, code: 'audio/empty', message: 'The audio is empty.' });
    expect(await decodeSpeech({ bytes: new Uint8Array(0), format: 'wav' })).toMatchObject({ code: 'audio/empty' });
  });
});

describe('limits', () => {
  it('refuses audio longer than the limit, in every format, with the limit in the message', async () => {
    const long = toInt16(chirp(16000, 31));
    const message = 'The audio is longer than 30 seconds.';
    expect(await decodeSpeech({ bytes: encodeWav(long, 16000), format: 'wav' })).toEqual({ ok: false, code: 'audio/too_long', message });
    expect(await decodeSpeech({ bytes: new Uint8Array(long.buffer), format: 'pcm16' })).toEqual({ ok: false, code: 'audio/too_long', message });
    expect(await decodeSpeech({ bytes: encodeMp3(long, 16000, 32), format: 'mp3' })).toEqual({ ok: false, code: 'audio/too_long', message });
    const short = toInt16(chirp(16000, 6));
    expect(await decodeSpeech({ bytes: encodeWav(short, 16000), format: 'wav' }, { maxSeconds: 5 })).toEqual({
      ok: false, code: 'audio/too_long', message: 'The audio is longer than 5 seconds.',
    });
  });

  it('never throws, whatever the bytes', async () => {
    for (let n = 0; n < 40; n++) {
      const bytes = Uint8Array.from({ length: 64 + n * 37 }, (_, i) => (i * (n + 3) * 2654435761) >>> 24);
      if (n % 3 === 0) bytes.set([0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x41, 0x56, 0x45]);
      for (const format of ['mp3', 'wav', 'pcm16'] as const) {
        const r = await decodeSpeech({ bytes, format, sample_rate: 16000 });
        expect(typeof r.ok).toBe('boolean');
      }
    }
  });
});
