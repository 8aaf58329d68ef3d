// The image sizes the render path produces: the spec's, plus any configured (MEDIA_RENDER_SIZES). Kept apart from the
// renderer so that reading the configuration does not load sharp.

export type RenderSize = { width: number; height: number; quality: number; use: string };

/** The spec's sizes (accounts-catalogue-launch-tickets.md, "Sizes"; game-screen-realtime.md §9). */
export const SPEC_SIZES: readonly RenderSize[] = [
  { width: 1920, height: 1080, quality: 85, use: 'hero' },
  { width: 1280, height: 720, quality: 85, use: 'hero srcset' },
  { width: 640, height: 360, quality: 85, use: 'hero srcset' },
  { width: 400, height: 400, quality: 80, use: 'logo' },
  { width: 800, height: 600, quality: 95, use: 'card' },
  { width: 1200, height: 900, quality: 95, use: 'card' },
  { width: 1600, height: 1200, quality: 95, use: 'card' },
  { width: 80, height: 80, quality: 85, use: 'thumbnail' },
  { width: 400, height: 300, quality: 85, use: 'place' },
];

/** Extra sizes from MEDIA_RENDER_SIZES: "640x480@90,320x180@80" (at most 4096 a side). */
export function parseRenderSizes(text: string): RenderSize[] | string {
  const out: RenderSize[] = [];
  for (const part of text.split(',').map((x) => x.trim()).filter(Boolean)) {
    const m = /^(\d{1,4})x(\d{1,4})@(\d{1,3})$/.exec(part);
    const [w, h, q] = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [0, 0, 0];
    if (!m || w < 1 || h < 1 || w > 4096 || h > 4096 || q < 1 || q > 100) return `"${part}" is not WIDTHxHEIGHT@QUALITY (1..4096, quality 1..100)`;
    out.push({ width: w, height: h, quality: q, use: 'configured' });
  }
  return out;
}
