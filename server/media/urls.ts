// Public media URLs in the spec's shape: {storage}/object/public/image/{storyId}/{file}; the resized variant uses the
// render/image path with width, height, quality and resize. Story files name their images relative to themselves
// ("images/logo.svg"); absolute URLs are left alone.
import { type Config, publicUrl } from '../config.js';

/**
 * Where media URLs point: PUBLIC_URL when set, else root-relative ('/storage/v1/...'). Without a configured public
 * address the server cannot know the one a browser reached it at (a LAN IP, an ephemeral test port), and the web app
 * it serves resolves a root-relative URL against its own origin; API clients resolve it against their base URL.
 */
function mediaBase(config: Config): string {
  return config.PUBLIC_URL ? publicUrl(config) : '';
}

export const STORAGE_PREFIX = '/storage/v1';

export function isAbsoluteUrl(u: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(u);
}

/** The stored file name of a story-relative media path ("images/logo.svg" -> "logo.svg"). */
export function mediaFileName(path: string): string {
  return path.replace(/^\.?\/?(images\/)?/, '');
}

export function publicImageUrl(config: Config, storyId: string, path: string): string {
  if (!path || isAbsoluteUrl(path)) return path;
  return `${mediaBase(config)}${STORAGE_PREFIX}/object/public/image/${storyId}/${encodeURIComponent(mediaFileName(path))}`;
}

export function resizedImageUrl(config: Config, storyId: string, path: string, o: { width: number; height: number; quality: number }): string {
  if (!path || isAbsoluteUrl(path)) return path;
  return `${mediaBase(config)}${STORAGE_PREFIX}/render/image/public/image/${storyId}/${encodeURIComponent(mediaFileName(path))}?width=${o.width}&height=${o.height}&quality=${o.quality}&resize=cover`;
}
