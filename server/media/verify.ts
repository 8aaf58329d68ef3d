// Uploaded images must decode as the type they claim: a body that only starts like a PNG (magic bytes, then HTML) is
// refused, and so is a JPEG sent as image/png. sharp reads the header (the whole document for SVG) without rendering.
import sharp, { type Metadata } from 'sharp';

/** Largest side of an uploaded raster image, and its largest pixel count. */
export const MAX_UPLOAD_SIDE = 8192;
export const MAX_UPLOAD_PIXELS = 40_000_000;

const FORMAT_OF: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/webp': 'webp', 'image/svg+xml': 'svg' };

export type ImageCheck = { ok: true; width: number; height: number } | { ok: false; message: string };

export async function verifyImage(bytes: Buffer, type: string): Promise<ImageCheck> {
  const want = FORMAT_OF[type];
  if (!want) return { ok: true, width: 0, height: 0 };
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: MAX_UPLOAD_PIXELS }).metadata();
  } catch {
    return { ok: false, message: `The body is not a readable ${type} image.` };
  }
  if (meta.format !== want) return { ok: false, message: `The body is a ${meta.format ?? 'unknown'} image, not ${type}.` };
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (width < 1 || height < 1) return { ok: false, message: `The ${type} image has no size.` };
  if (want !== 'svg' && (width > MAX_UPLOAD_SIDE || height > MAX_UPLOAD_SIDE || width * height > MAX_UPLOAD_PIXELS)) {
    return { ok: false, message: `The image is ${width}x${height}: at most ${MAX_UPLOAD_SIDE} pixels a side and ${MAX_UPLOAD_PIXELS / 1e6} megapixels.` };
  }
  return { ok: true, width, height };
}
