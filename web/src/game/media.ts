// Game view image paths are story-relative ('images/x.svg'); the catalogue resolves them on the server, the game
// view does not yet, so the screen does it the same way server/media/urls.ts does (root-relative public URLs).
export function mediaUrl(storyId: string, path: string | undefined | null): string | null {
  if (!path) return null;
  if (/^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith('/')) return path;
  const file = path.replace(/^\.?\/?(images\/)?/, '');
  return `/storage/v1/object/public/image/${storyId}/${encodeURIComponent(file)}`;
}
