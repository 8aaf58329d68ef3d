// A story with its media in and out as one archive (engine/story/archive.ts). Export gives the story file exactly as
// imported (the CLI's `story export` text) and every stored file of the story. Import checks everything before it
// writes anything: the archive's shape and caps, the story file (the validator's errors), every media file as an
// upload would be checked (images re-encoded by sharp, SVG refused, sounds decoded) and the stored-bytes quotas; then
// the story is imported and the media stored. An archive is untrusted input: a refusal changes nothing.
import { packStoryArchive, unpackStoryArchive, type ArchiveLimits, type ArchiveMedia } from '../../engine/story/archive.js';
import { STORY_FILE_MAX_BYTES, storyFileSizeProblem } from '../../engine/story/limits.js';
import type { Story } from '../../engine/story/format.js';
import { validateStory } from '../../engine/story/validate.js';
import type { Problem } from '../../engine/story/validate-refs.js';
import type { Config } from '../config.js';
import { StoryImportError, type StoryRepo } from '../store/stories.js';
import { BUCKETS, checkUpload, contentTypeOf } from './storage.js';
import type { StoredQuota } from './stored-quota.js';
import { sizeText } from './stored-quota.js';
import { readAll, type MediaStore } from './store.js';
import { reencodeImage, verifySound } from './verify.js';

export type ArchiveRefusal = { ok: false; status: 400 | 404 | 413 | 415 | 422; code: string; message: string; problems?: Problem[] };
export type ArchiveDeps = { stories: StoryRepo; media: MediaStore };

/** The caps of a story archive: STORY_ARCHIVE_MAX_BYTES in all, STORY_ARCHIVE_MAX_FILES members, each file at most
 *  MEDIA_MAX_FILE_BYTES (the story file at most its own cap). */
export function archiveLimits(config: Pick<Config, 'STORY_ARCHIVE_MAX_BYTES' | 'STORY_ARCHIVE_MAX_FILES' | 'MEDIA_MAX_FILE_BYTES'>): ArchiveLimits {
  return { maxTotalBytes: config.STORY_ARCHIVE_MAX_BYTES, maxMembers: config.STORY_ARCHIVE_MAX_FILES, maxMemberBytes: Math.max(config.MEDIA_MAX_FILE_BYTES, STORY_FILE_MAX_BYTES) };
}

/** The story file as `looptale story export` writes it. */
export const storyFileText = (raw: unknown): string => `${JSON.stringify(raw, null, 2)}\n`;

/** The story and its media as an archive; null for an unknown story; a refusal past the archive's caps. */
export async function exportStoryArchive(deps: ArchiveDeps, id: string, limits: ArchiveLimits): Promise<{ ok: true; bytes: Uint8Array; files: number } | ArchiveRefusal | null> {
  const raw = await deps.stories.exportStory(id);
  if (raw === null) return null;
  const media: ArchiveMedia[] = [];
  let total = 0;
  for (const bucket of BUCKETS) {
    for (const o of await deps.media.list(bucket, id)) {
      total += o.size;
      if (media.length + 2 > limits.maxMembers || total > limits.maxTotalBytes) {
        return { ok: false, status: 413, code: 'archive/too_large', message: `The story's media do not fit one archive: at most ${limits.maxMembers.toLocaleString('en-US')} files and ${sizeText(limits.maxTotalBytes)} (STORY_ARCHIVE_MAX_FILES, STORY_ARCHIVE_MAX_BYTES).` };
      }
      const bytes = await readAll(deps.media, bucket, id, o.name);
      if (bytes) media.push({ bucket, file: o.name, bytes });
    }
  }
  return { ok: true, bytes: packStoryArchive({ story: new TextEncoder().encode(storyFileText(raw)), media }), files: media.length };
}

/** A checked archive, ready to write. */
export type CheckedArchive = { ok: true; story: Story; raw: unknown; media: ArchiveMedia[]; warnings: number };

/** Unpacks and checks an archive (nothing is written). */
export async function checkStoryArchive(bytes: Uint8Array, limits: ArchiveLimits): Promise<CheckedArchive | ArchiveRefusal> {
  const u = unpackStoryArchive(bytes, limits);
  if (!u.ok) {
    const status = ['archive/too_large', 'archive/too_many_members', 'archive/member_too_large'].includes(u.error.code) ? 413 : 400;
    return { ok: false, status, code: u.error.code, message: u.error.message };
  }
  const { story: storyBytes, media } = u.archive;
  const tooBig = storyFileSizeProblem(storyBytes.length);
  if (tooBig) return { ok: false, status: 413, code: 'archive/story_too_large', message: `story.json: ${tooBig}.` };
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(storyBytes));
  } catch (e) {
    return { ok: false, status: 400, code: 'archive/story_not_json', message: `story.json is not JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  const v = validateStory(raw);
  if (!v.ok || !v.story) {
    const errors = v.problems.filter((p) => p.severity === 'error');
    const first = errors[0];
    return { ok: false, status: 422, code: 'archive/story_invalid', message: `story.json has ${errors.length} error${errors.length === 1 ? '' : 's'}${first ? `, first ${first.path}: ${first.message}` : ''}. Fix them first (looptale story validate).`, problems: errors };
  }
  const checked: ArchiveMedia[] = [];
  for (const m of media) {
    const where = `media/${m.bucket}/${m.file}`;
    const buf = Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength);
    const c = checkUpload(m.bucket, m.file, contentTypeOf(m.file), buf);
    if (!c.ok) return { ok: false, status: 415, code: c.code, message: `${where}: ${c.message}` };
    if (m.bucket === 'image') {
      const image = await reencodeImage(buf, c.type);
      if (!image.ok) return { ok: false, status: 415, code: 'storage/content_mismatch', message: `${where}: ${image.message}` };
      checked.push({ ...m, bytes: image.bytes });
    } else {
      const sound = await verifySound(buf, c.type);
      if (!sound.ok) return { ok: false, status: 415, code: 'storage/content_mismatch', message: `${where}: ${sound.message}` };
      checked.push(m);
    }
  }
  return { ok: true, story: v.story, raw, media: checked, warnings: v.problems.length };
}

/** Writes a checked archive: the story (replacing one with its id), then its media (replacing files of the same name). */
export async function writeStoryArchive(deps: ArchiveDeps, a: CheckedArchive, quota?: { stored: StoredQuota; userId: string }): Promise<{ ok: true; files: number } | ArchiveRefusal> {
  if (quota) {
    const over = await quota.stored.check(quota.userId, a.story.id, a.media.map((m) => ({ bucket: m.bucket, file: m.file, bytes: m.bytes.length })));
    if (over) return { ok: false, ...over };
  }
  try {
    await deps.stories.importStory(a.story, a.raw);
  } catch (e) {
    if (e instanceof StoryImportError) return { ok: false, status: 400, code: 'archive/story_refused', message: e.message };
    throw e;
  }
  for (const m of a.media) await deps.media.put(m.bucket, a.story.id, m.file, Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength), true);
  return { ok: true, files: a.media.length };
}
