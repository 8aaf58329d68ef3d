// The studio's stories list beyond drafts (/api/authoring/...): new stories from a template (a blank one, or a copy
// of a story shipped in STORIES_DIR), a duplicate of a story under new ids, and deletion with a grace period (the
// list of deleted stories, undo, and the purge after). Same rules as routes.ts: story makers only, an author reaches
// the stories they created or were added to, an admin every story.
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { z } from 'zod';
import { type Json } from '../../engine/authoring/apply.js';
import { blankStory, copyName, withFreshIds } from '../../engine/authoring/new-story.js';
import { Story } from '../../engine/story/format.js';
import type { RouteModule } from '../http/app.js';
import { HttpError, notFound } from '../http/errors.js';
import { RateLimiter } from '../http/rate-limit.js';
import { route } from '../http/route.js';
import { referencedMedia, storedAs } from '../media/seed-media.js';
import { FileName } from '../media/storage.js';
import type { MediaStore } from '../media/store.js';
import type { AuthorsRepo } from '../store/authors.js';
import type { DraftRepo, DraftWrite } from '../store/drafts.js';
import type { StoryRepo } from '../store/stories.js';
import { copyStoryMedia, type WorkshopRepo } from '../store/workshop.js';
import { DraftView } from './views.js';

const Id = z.object({ id: z.uuid({ message: 'must be a story id (UUID)' }) });
const WRITES_PER_MINUTE = 30;
const BLANK = 'blank';

export const Template = z.object({ id: z.string(), name: z.string(), description: z.string(), moments: z.number().int() });
export type Template = z.infer<typeof Template>;

export const DeletedStoryView = z.object({
  id: z.string(),
  name: z.string(),
  deleted_at: z.string(),
  deleted_by: z.string().nullable(),
  /** When the story is purged for good unless brought back before. */
  purge_at: z.string(),
  published_version: z.number().int().nullable(),
});

const Created = z.object({ draft: DraftView, merged: z.boolean() });
const StoryName = z.string().trim().min(1, 'must not be empty').max(120, 'must be at most 120 characters');

export type WorkshopDeps = {
  drafts: DraftRepo; stories: StoryRepo; authors: AuthorsRepo; workshop: WorkshopRepo; media: MediaStore; storiesDir: string;
  now?: () => Date;
};

/** The stories of STORIES_DIR that parse, as templates (their folder name is the template's id). */
export function templatesIn(dir: string): { template: Template; folder: string }[] {
  if (!existsSync(dir)) return [];
  const out: { template: Template; folder: string }[] = [];
  for (const d of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const file = join(dir, d.name, 'story.json');
    if (!d.isDirectory() || !existsSync(file) || !/^[a-z0-9-]+$/.test(d.name)) continue;
    try {
      const story = Story.safeParse(JSON.parse(readFileSync(file, 'utf8')));
      if (!story.success) continue;
      out.push({
        folder: join(dir, d.name),
        template: { id: d.name, name: story.data.name, description: story.data.catalogue.description.en, moments: story.data.moments.length },
      });
    } catch {
      // Not JSON: not a template.
    }
  }
  return out;
}

export function workshopRoutes(deps: WorkshopDeps): RouteModule {
  const { drafts, stories, authors, workshop, media } = deps;
  const now = deps.now ?? (() => new Date());
  const writes = new RateLimiter(WRITES_PER_MINUTE, 60_000);
  const shipped = templatesIn(deps.storiesDir);
  const templates: Template[] = [
    { id: BLANK, name: 'Blank story', description: 'A Monologue leading to an Epilogue, told by a narrator: the smallest story that can be published.', moments: 2 },
    ...shipped.map((t) => t.template),
  ];

  const forbidden = (message: string): HttpError => new HttpError(403, 'authoring/forbidden', message);
  async function author(userId: string): Promise<'author' | 'admin'> {
    const role = await authors.userRole(userId);
    if (role === 'player') throw forbidden('The studio is for story makers: ask an admin to give your account the author role.');
    return role;
  }
  function limit(userId: string): void {
    if (writes.allow(userId, Date.now())) return;
    throw new HttpError(429, 'rate_limited', `Too many new or deleted stories: at most ${WRITES_PER_MINUTE} a minute. Wait a moment and try again.`,
      { 'retry-after': String(Math.ceil(writes.retryAfterMs(userId, Date.now()) / 1000)) });
  }
  async function mayEdit(userId: string, storyId: string, write: boolean): Promise<void> {
    await author(userId);
    if ((await authors.roleFor(userId, storyId)) === null) throw forbidden('You are not an author of this story: ask its author or an admin to add you.');
    if (write) limit(userId);
  }
  const created = (w: DraftWrite) => {
    if (!w.ok) {
      if (w.kind === 'invalid') throw new HttpError(422, 'authoring/invalid', `The story was not created: ${w.problems.slice(0, 3).map((p) => `${p.path}: ${p.message}`).join('; ')}`, {}, { problems: w.problems });
      throw new HttpError(409, `authoring/${w.kind}`, 'The story was not created: try again.');
    }
    return { draft: w.draft, merged: false };
  };

  /** Copies the template's media files (its story-relative paths) into the new story's folders. */
  async function copyTemplateMedia(folder: string, story: Story, to: string): Promise<void> {
    const root = resolve(folder);
    for (const path of referencedMedia(story)) {
      const src = resolve(root, path);
      const { bucket, file } = storedAs(path);
      if (!src.startsWith(root + sep) || !FileName.safeParse(file).success || !existsSync(src)) continue;
      await media.put(bucket, to, file, await readFile(src), false);
    }
  }

  return (app) => {
    route(app, { method: 'GET', url: '/api/authoring/templates', summary: 'The templates a new story can start from: a blank story and the stories shipped with the server', tags: ['authoring'], auth: 'user', response: z.array(Template) },
      async ({ user }) => {
        await author(user?.id ?? '');
        return templates;
      });
    route(app, { method: 'POST', url: '/api/authoring/stories/from-template', summary: 'Create a story from a template under new ids, with its media: a draft only; the caller becomes its author', tags: ['authoring'], auth: 'user',
      body: z.object({ template: z.string().min(1).max(64), name: StoryName.optional() }).strict(), response: Created, status: 201 },
      async ({ body, user }) => {
        const userId = user?.id ?? '';
        await author(userId);
        limit(userId);
        const at = now().toISOString();
        if (body.template === BLANK) return created(await drafts.create(blankStory(randomUUID, body.name ?? 'Untitled story', at), userId));
        const t = shipped.find((x) => x.template.id === body.template);
        if (!t) throw new HttpError(404, 'not_found', `No template "${body.template}": GET /api/authoring/templates lists them.`);
        const file = JSON.parse(await readFile(join(t.folder, 'story.json'), 'utf8')) as Json;
        const doc = withFreshIds(file, randomUUID, body.name ?? t.template.name, at);
        const w = await drafts.create(doc, userId);
        if (w.ok) await copyTemplateMedia(t.folder, Story.parse(file), w.draft.story_id);
        return created(w);
      });
    route(app, { method: 'POST', url: '/api/authoring/stories/:id/duplicate', summary: 'A copy of the story (its draft as it is now) under new ids, named "... (copy)", with its media: a new draft-only story', tags: ['authoring'], auth: 'user', params: Id,
      body: z.object({ name: StoryName.optional() }).strict().optional(), response: Created, status: 201 },
      async ({ params, body, user }) => {
        const userId = user?.id ?? '';
        await mayEdit(userId, params.id, true);
        const source = await drafts.open(params.id, userId);
        if (!source) throw notFound('Story not found.');
        const doc = withFreshIds(source.document, randomUUID, body?.name ?? copyName(typeof source.document.name === 'string' ? source.document.name : 'Story'), now().toISOString());
        const w = await drafts.create(doc, userId);
        if (w.ok) await copyStoryMedia(media, params.id, w.draft.story_id);
        return created(w);
      });
    route(app, { method: 'DELETE', url: '/api/authoring/stories/:id', summary: 'Delete the story softly: out of the catalogue and of new runs at once, brought back with undelete until purge_at', tags: ['authoring'], auth: 'user', params: Id, response: DeletedStoryView },
      async ({ params, user }) => {
        await mayEdit(user?.id ?? '', params.id, true);
        const d = await workshop.delete(params.id, user?.id ?? '');
        if (!d) throw notFound('Story not found.');
        stories.forget(params.id);
        return d;
      });
    route(app, { method: 'POST', url: '/api/authoring/stories/:id/undelete', summary: 'Bring a deleted story back as it was (before its purge)', tags: ['authoring'], auth: 'user', params: Id, response: z.object({ id: z.string(), restored: z.literal(true) }) },
      async ({ params, user }) => {
        await mayEdit(user?.id ?? '', params.id, true);
        if (!(await workshop.undelete(params.id))) throw notFound('This story is not deleted (or was purged already).');
        stories.forget(params.id);
        return { id: params.id, restored: true as const };
      });
    route(app, { method: 'GET', url: '/api/authoring/deleted', summary: 'The deleted stories the caller may bring back, with when each is purged', tags: ['authoring'], auth: 'user', response: z.array(DeletedStoryView) },
      async ({ user }) => {
        const role = await author(user?.id ?? '');
        return workshop.deleted(user?.id ?? '', role === 'admin');
      });
  };
}
