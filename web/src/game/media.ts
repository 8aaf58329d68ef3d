// The server's game view carries public media URLs (root-relative '/storage/v1/...' or absolute). A story-relative
// path ('images/x.svg') can still reach the screen from an older server or a moment output: it is resolved the way
// server/media/urls.ts does.
export function mediaUrl(storyId: string, path: string | undefined | null): string | null {
  if (!path) return null;
  if (/^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith('/')) return path;
  const file = path.replace(/^\.?\/?(images\/)?/, '');
  return `/storage/v1/object/public/image/${storyId}/${encodeURIComponent(file)}`;
}
