// What an upload must be before it is stored. Images are decoded and re-encoded by sharp in the format they claim, so
// what is stored is sharp's output (no trailing bytes, no metadata, no polyglot files), never the uploaded bytes. SVG
// is refused: it is a document that can carry script. Sounds are decoded (WAV by its reader, MP3 by the mpg123
// decoder) and stored as sent once they decode.
import sharp, { type Metadata, type Sharp } from 'sharp';
import { decodeMp3 } from '../voice/mp3.js';
import { parseWav } from '../voice/wav.js';

/** Largest side of an uploaded raster image, and its largest pixel count. */
export const MAX_UPLOAD_SIDE = 8192;
export const MAX_UPLOAD_PIXELS = 40_000_000;
/** Longest sound accepted, in seconds. */
export const MAX_SOUND_SECONDS = 600;

export const SVG_REFUSED = 'SVG images are not accepted: an SVG file can carry script. Upload a PNG, JPEG or WebP image.';

const FORMAT_OF: Record<string, 'png' | 'jpeg' | 'webp'> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/webp': 'webp' };

/** The encoder of each stored format. PNG is lossless and re-encodes to the same bytes, so a stored PNG round-trips. */
const ENCODE: Record<'png' | 'jpeg' | 'webp', (s: Sharp) => Sharp> = {
  png: (s) => s.png(),
  jpeg: (s) => s.jpeg({ quality: 90, mozjpeg: true }),
  webp: (s) => s.webp({ quality: 90 }),
};

export type ImageCheck = { ok: true; bytes: Buffer; width: number; height: number } | { ok: false; message: string };

/** Decodes an uploaded image as the type it claims and re-encodes it (orientation applied, metadata dropped). */
export async function reencodeImage(bytes: Buffer, type: string): Promise<ImageCheck> {
  const want = FORMAT_OF[type];
  if (!want) return { ok: false, message: type === 'image/svg+xml' ? SVG_REFUSED : `${type} images are not accepted.` };
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: MAX_UPLOAD_PIXELS }).metadata();
  } catch {
    return { ok: false, message: `The body is not a readable ${type} image.` };
  }
  const { format, width, height } = meta;
  if (format !== want) return { ok: false, message: `The body is a ${format} image, not ${type}.` };
  if (width < 1 || height < 1) return { ok: false, message: `The ${type} image has no size.` };
  if (width > MAX_UPLOAD_SIDE || height > MAX_UPLOAD_SIDE || width * height > MAX_UPLOAD_PIXELS) {
    return { ok: false, message: `The image is ${width}x${height}: at most ${MAX_UPLOAD_SIDE} pixels a side and ${MAX_UPLOAD_PIXELS / 1e6} megapixels.` };
  }
  try {
    const out = await ENCODE[want](sharp(bytes, { limitInputPixels: MAX_UPLOAD_PIXELS }).rotate()).toBuffer({ resolveWithObject: true });
    return { ok: true, bytes: out.data, width: out.info.width, height: out.info.height };
  } catch {
    // The header read but the pixels do not (a truncated or damaged file).
    return { ok: false, message: `The body is not a readable ${type} image.` };
  }
}

export type SoundCheck = { ok: true; seconds: number } | { ok: false; message: string };

/** Whether a sound decodes as the type it claims, with some audio in it, at most MAX_SOUND_SECONDS long. */
export async function verifySound(bytes: Buffer, type: string): Promise<SoundCheck> {
  if (type === 'audio/wav') {
    const r = parseWav(bytes);
    if (!r.ok) return { ok: false, message: r.message };
    const frames = r.audio.channels[0]?.length ?? 0;
    if (frames === 0) return { ok: false, message: 'The WAV file holds no audio.' };
    const seconds = frames / r.audio.sampleRate;
    if (seconds > MAX_SOUND_SECONDS) return { ok: false, message: `The sound is longer than ${MAX_SOUND_SECONDS} seconds.` };
    return { ok: true, seconds };
  }
  if (type === 'audio/mpeg') {
    const r = await decodeMp3(bytes, MAX_SOUND_SECONDS);
    if (!r.ok) return { ok: false, message: r.code === 'audio/too_long' ? `The sound is longer than ${MAX_SOUND_SECONDS} seconds.` : r.message };
    const frames = r.audio.channels[0]?.length ?? 0;
    if (frames === 0) return { ok: false, message: 'The MP3 file holds no audio.' };
    return { ok: true, seconds: frames / r.audio.sampleRate };
  }
  return { ok: false, message: `${type} sounds are not accepted.` };
}
