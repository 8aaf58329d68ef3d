// At start, every story of the catalogue gets the files its story.json references (catalogue images, sample images,
// character, item, place and moment media, sounds) copied from its folder under STORIES_DIR into storage, when
// missing. A story's folder is found by its id, since imported stories keep no path.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import type { Story } from '../../engine/story/format.js';
import { storyFileSizeProblem } from '../../engine/story/limits.js';
import { isAbsoluteUrl, mediaFileName } from './urls.js';
import { type Bucket, FileName } from './storage.js';
import type { MediaStore } from './store.js';

export type SeedMediaLog = {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
};

const SOUND_EXTENSIONS = new Set(['.mp3', '.wav', '.ogg']);

/** Every story-relative media path a story references (absolute URLs are hosted elsewhere). */
export function referencedMedia(story: Story): string[] {
  const c = story.catalogue;
  const paths = [
    c.background_image, c.story_logo_image, ...c.sample_images, c.sound_intro ?? '',
    ...story.characters.flatMap((x) => [...x.media, ...x.team_media].map((m) => m.url)),
    ...story.items.flatMap((x) => x.media.map((m) => m.url)),
    ...story.places.flatMap((x) => x.media.map((m) => m.url)),
    ...story.moments.flatMap((x) => [...x.media.map((m) => m.url), x.sound?.url ?? '']),
  ];
  return [...new Set(paths.filter((p) => p !== '' && !isAbsoluteUrl(p)))];
}

/** Where a story-relative path is stored: the bucket, and the file name its public URL uses. */
export function storedAs(path: string): { bucket: Bucket; file: string } {
  if (SOUND_EXTENSIONS.has(extname(path).toLowerCase())) return { bucket: 'sound', file: path.replace(/^\.?\/?(sounds?\/)?/, '') };
  return { bucket: 'image', file: mediaFileName(path) };
}

/** story id -> its folder, for every STORIES_DIR/<folder>/story.json that names an id. */
export function storyFolders(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  if (!existsSync(dir)) return out;
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const file = join(dir, d.name, 'story.json');
    if (!d.isDirectory() || !existsSync(file)) continue;
    try {
      if (storyFileSizeProblem(statSync(file).size)) continue; // the story seeding reports it
      const id = (JSON.parse(readFileSync(file, 'utf8')) as { id?: unknown }).id;
      if (typeof id === 'string' && !out.has(id)) out.set(id, join(dir, d.name));
    } catch {
      // Not JSON: the story seeding reports it; there is nothing to copy from it.
    }
  }
  return out;
}

export async function seedMedia(
  storage: MediaStore, stories: { ids(): Promise<string[]>; get(id: string): Promise<Story | null> }, storiesDir: string, log: SeedMediaLog,
): Promise<{ copied: number }> {
  const folders = storyFolders(storiesDir);
  let copied = 0;
  for (const id of await stories.ids()) {
    const folder = folders.get(id);
    const story = folder ? await stories.get(id) : null;
    if (!folder || !story) continue;
    const root = resolve(folder);
    for (const path of referencedMedia(story)) {
      const src = resolve(root, path);
      const { bucket, file } = storedAs(path);
      if (!src.startsWith(root + sep) || !FileName.safeParse(file).success) {
        log.warn({ story_id: id, path }, 'media path is not a plain file inside the story folder: not copied');
        continue;
      }
      if (!existsSync(src)) {
        log.warn({ story_id: id, path }, 'media file referenced by the story is missing');
        continue;
      }
      // Never over a file already stored (an author may have replaced it); several processes starting at once each
      // try, and one of them stores it.
      if (await storage.stat(bucket, id, file)) continue;
      if ((await storage.put(bucket, id, file, await readFile(src), false)) === 'created') copied += 1;
    }
  }
  if (copied > 0) log.info({ copied, store: storage.kind }, 'story media copied into storage');
  return { copied };
}
