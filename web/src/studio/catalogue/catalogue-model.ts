// The story page's view of the draft: its catalogue fields read from the story file, the catalogue row players get
// built from them (what the server's catalogue route answers, media paths as public URLs), the fields' limits from
// the story format, and the spec's image sizes for the crop previews. Pure: no React.
import type { Json } from '../../../../engine/authoring/apply.js';
import type { CatalogueStory } from '../../../../engine/schema/views.js';
import { MAX_CATALOGUE_DESCRIPTION_CHARS } from '../../../../engine/story/text.js';

export const LIMITS = { name: 120, description: MAX_CATALOGUE_DESCRIPTION_CHARS, tag: 50, tags: 20, colour: 64, samples: 12 } as const;
export const RATINGS = ['ESRB_EVERYONE', 'ESRB_10', 'ESRB_Teen', 'ESRB_MATURE', 'ESRB_ADULT', 'ESRB_PENDING'] as const;
export const LEVELS = ['Low', 'Medium', 'High'] as const;

/** accounts spec §7 "Storage and images": the sizes players get each image at. */
export const IMAGE_SIZES = {
  background_image: [{ label: 'Hero', width: 1920, height: 1080 }, { label: 'Card', width: 800, height: 600 }],
  story_logo_image: [{ label: 'Logo', width: 400, height: 400 }],
  sample_images: [{ label: 'Card', width: 800, height: 600 }],
} as const;

export type Catalogue = {
  background_image: string; story_logo_image: string; sample_images: string[]; text_rgba_color: string; background_rgba_color: string;
  control_rgba_color: string; description: { en: string; fr?: string }; esbr_rating: string; esbr_tags: string[]; genre_tags: string[];
  interactivity_level: string; branching_level: string; estimated_minute_duration: number; is_coming_soon: boolean; sound_intro?: string;
  positive_count: number; negative_count: number; created_at: string;
};

const isObj = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);
const str = (x: unknown, d = ''): string => (typeof x === 'string' ? x : d);
const strs = (x: unknown): string[] => (Array.isArray(x) ? x.filter((v): v is string => typeof v === 'string') : []);

/** The catalogue with the format's defaults for what the file leaves out. */
export function catalogueOf(doc: Json): Catalogue {
  const c = isObj(doc.catalogue) ? doc.catalogue : {};
  const d = isObj(c.description) ? c.description : {};
  return {
    background_image: str(c.background_image), story_logo_image: str(c.story_logo_image), sample_images: strs(c.sample_images),
    text_rgba_color: str(c.text_rgba_color, 'rgba(255,255,255,1)'), background_rgba_color: str(c.background_rgba_color, 'rgba(0,0,0,1)'),
    control_rgba_color: str(c.control_rgba_color, 'rgba(255,255,255,1)'),
    description: { en: str(d.en), ...(typeof d.fr === 'string' ? { fr: d.fr } : {}) },
    esbr_rating: str(c.esbr_rating, 'ESRB_PENDING'), esbr_tags: strs(c.esbr_tags), genre_tags: strs(c.genre_tags),
    interactivity_level: str(c.interactivity_level, 'Medium'), branching_level: str(c.branching_level, 'Medium'),
    estimated_minute_duration: typeof c.estimated_minute_duration === 'number' ? c.estimated_minute_duration : 15,
    is_coming_soon: c.is_coming_soon === true, ...(typeof c.sound_intro === 'string' ? { sound_intro: c.sound_intro } : {}),
    positive_count: typeof c.positive_count === 'number' ? c.positive_count : 0, negative_count: typeof c.negative_count === 'number' ? c.negative_count : 0,
    created_at: str(c.created_at, new Date(0).toISOString()),
  };
}

const isAbsolute = (u: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(u);

/** A story-relative media path as the URL players load it from (server/media/urls.ts publicImageUrl). */
export function mediaUrl(storyId: string, path: string, bucket: 'image' | 'sound' = 'image'): string {
  if (!path || isAbsolute(path)) return path;
  const file = bucket === 'image' ? path.replace(/^\.?\/?(images\/)?/, '') : path.replace(/^\.?\/?(sounds?\/)?/, '');
  return `/storage/v1/object/public/${bucket}/${storyId}/${encodeURIComponent(file)}`;
}

/** The catalogue row players get for this draft (server/api/catalogue-routes.ts), for the live card and modal. */
export function catalogueRow(doc: Json): CatalogueStory {
  const id = str(doc.id);
  const c = catalogueOf(doc);
  const bg = mediaUrl(id, c.background_image);
  return {
    id, name: str(doc.name), background_image: bg, story_logo_image: mediaUrl(id, c.story_logo_image),
    sampleImages: c.sample_images.length > 0 ? c.sample_images.map((p) => mediaUrl(id, p)) : [bg],
    text_rgba_color: c.text_rgba_color, catalogue_description: c.description.en, created_at: c.created_at, is_coming_soon: c.is_coming_soon,
    user_started: false, esbr_rating: c.esbr_rating, esbr_tags: c.esbr_tags.map((value) => ({ value })), genre_tags: c.genre_tags.map((value) => ({ value })),
    interactivity_level: c.interactivity_level as CatalogueStory['interactivity_level'], branching_level: c.branching_level as CatalogueStory['branching_level'],
    estimated_minute_duration: c.estimated_minute_duration, positive_count: c.positive_count, negative_count: c.negative_count,
  };
}

/** "Mystery, Cozy" -> ['Mystery', 'Cozy'], or why the list breaks the format's limits. */
export function parseTags(text: string): { ok: true; tags: string[] } | { ok: false; message: string } {
  const tags = text.split(',').map((t) => t.trim()).filter((t) => t !== '');
  const long = tags.find((t) => t.length > LIMITS.tag);
  if (long) return { ok: false, message: `"${long.slice(0, 20)}…" is longer than ${LIMITS.tag} characters.` };
  if (tags.length > LIMITS.tags) return { ok: false, message: `At most ${LIMITS.tags} tags (${tags.length} given).` };
  return { ok: true, tags };
}

/** A whole number of at least `min`, or why not. */
export function parseWhole(text: string, min: number): { ok: true; value: number } | { ok: false; message: string } {
  const n = Number(text.trim());
  if (text.trim() === '' || !Number.isInteger(n) || n < min) return { ok: false, message: `Must be a whole number of at least ${min}.` };
  return { ok: true, value: n };
}

/** 'rgba(255,240,205,1)' -> '#fff0cd' for a colour input; null when it is not an rgb(a) or #hex colour. */
export function hexOf(colour: string): string | null {
  const hex = /^#([0-9a-f]{6})$/i.exec(colour.trim());
  if (hex) return `#${(hex[1] ?? '').toLowerCase()}`;
  const m = /^rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,\s*([\d.]+)\s*)?\)$/i.exec(colour.trim());
  if (!m) return null;
  const parts = [m[1], m[2], m[3]].map((x) => Number(x));
  if (parts.some((x) => x > 255)) return null;
  return `#${parts.map((x) => x.toString(16).padStart(2, '0')).join('')}`;
}

/** '#fff0cd' -> 'rgba(255,240,205,1)', keeping the alpha of `previous`. */
export function rgbaOf(hex: string, previous: string): string {
  const alpha = /,\s*([\d.]+)\s*\)$/.exec(previous)?.[1] ?? '1';
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255},${(n >> 8) & 255},${n & 255},${alpha})`;
}
