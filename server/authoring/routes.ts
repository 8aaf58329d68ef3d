// The authoring API (/api/authoring/...): a story maker's stories, each story's draft changed a few validated
// changes at a time, its history and restore, publishing, versions, and story files in and out. Every route checks
// the caller itself: a player gets 403 from all of them; an author reaches the stories they created or were added
// to; an admin reaches every story. Writes name the revision they were based on (409 on a conflict, with both
// values; 422 with the validator's path-named problems when a change would make the draft unloadable).
import { z } from 'zod';
import { Changes } from '../../engine/authoring/change.js';
import { STORY_FILE_MAX_BYTES } from '../../engine/story/limits.js';
import type { RouteModule } from '../http/app.js';
import { HttpError, notFound } from '../http/errors.js';
import { RateLimiter } from '../http/rate-limit.js';
import { route } from '../http/route.js';
import type { AuthorsRepo } from '../store/authors.js';
import type { DraftRepo, DraftWrite } from '../store/drafts.js';
import type { StoryRepo } from '../store/stories.js';
import { DraftView, RevisionView, StoryFile, VersionView, WorkshopStory } from './views.js';

const Id = z.object({ id: z.uuid({ message: 'must be a story id (UUID)' }) });
const Base = z.number().int().min(0);

/** Writes per author per minute: generous for a person typing in the studio, a wall for a runaway script. */
const WRITES_PER_MINUTE = 120;

export type AuthoringDeps = { drafts: DraftRepo; stories: StoryRepo; authors: AuthorsRepo };

const forbidden = (message: string): HttpError => new HttpError(403, 'authoring/forbidden', message);

/** A refused draft write as its HTTP error; nothing was written. */
function refusal(w: Exclude<DraftWrite, { ok: true }>): HttpError {
  switch (w.kind) {
    case 'not_found': return notFound('Story not found.');
    case 'exists': return new HttpError(409, 'authoring/exists', 'A story with this id already exists: import it as a new draft of that story, or give the file a new id.');
    case 'stale': return new HttpError(409, 'authoring/stale', `The draft is at revision ${w.revision}: reload it and try again.`, {}, { revision: w.revision });
    case 'conflict': return new HttpError(409, 'authoring/conflict',
      `Someone changed the same thing since your revision: ${w.conflicts.map((c) => c.path).join(', ')}. Nothing was saved; choose a value and send it again.`,
      {}, { revision: w.revision, conflicts: w.conflicts });
    case 'invalid': return new HttpError(422, 'authoring/invalid',
      `The change was not saved: ${w.problems.slice(0, 3).map((p) => `${p.path}: ${p.message}`).join('; ')}${w.problems.length > 3 ? ` (and ${w.problems.length - 3} more)` : ''}`,
      {}, { problems: w.problems });
  }
}

export function authoringRoutes(deps: AuthoringDeps): RouteModule {
  const { drafts, stories, authors } = deps;
  const writes = new RateLimiter(WRITES_PER_MINUTE, 60_000);

  /** The caller may author at all (role author or admin). */
  async function author(userId: string): Promise<'author' | 'admin'> {
    const role = await authors.userRole(userId);
    if (role === 'player') throw forbidden('The studio is for story makers: ask an admin to give your account the author role.');
    return role;
  }
  /** The caller may change this story (an admin, or one of its authors). */
  async function mayEdit(userId: string, storyId: string, write = false): Promise<void> {
    await author(userId);
    if ((await authors.roleFor(userId, storyId)) === null) throw forbidden('You are not an author of this story: ask its author or an admin to add you.');
    if (write && !writes.allow(userId, Date.now())) {
      throw new HttpError(429, 'rate_limited', `Too many changes: at most ${WRITES_PER_MINUTE} a minute. Wait a moment and send again.`, { 'retry-after': String(Math.ceil(writes.retryAfterMs(userId, Date.now()) / 1000)) });
    }
  }
  const done = (w: DraftWrite) => {
    if (!w.ok) throw refusal(w);
    return { draft: w.draft, merged: w.merged, ...(w.version !== undefined ? { version: w.version } : {}) };
  };
  const Written = z.object({ draft: DraftView, merged: z.boolean(), version: z.number().int().optional() });

  return async (app) => {
    await app.register((scoped, _opts, registered) => {
      // Story files are bigger than other bodies (up to the story file cap, as `looptale story validate` allows).
      scoped.addHook('onRoute', (opts) => {
        if (opts.url === '/api/authoring/stories' || opts.url === '/api/authoring/stories/:id/draft') opts.bodyLimit = STORY_FILE_MAX_BYTES + 64 * 1024;
      });
      route(scoped, { method: 'GET', url: '/api/authoring/stories', summary: 'The stories the caller may edit (authors: theirs; admins: all), with their draft and newest version', tags: ['authoring'], auth: 'user', response: z.array(WorkshopStory) },
        async ({ user }) => {
          const role = await author(user?.id ?? '');
          return drafts.workshop(user?.id ?? '', role === 'admin');
        });
      route(scoped, { method: 'POST', url: '/api/authoring/stories', summary: 'Create a story from a story file: a draft only, in no catalogue until published; the caller becomes its author', tags: ['authoring'], auth: 'user',
        body: z.object({ story: StoryFile }).strict(), response: Written, status: 201 },
        async ({ body, user }) => {
          const id = user?.id ?? '';
          await author(id);
          if (!writes.allow(id, Date.now())) throw new HttpError(429, 'rate_limited', `Too many changes: at most ${WRITES_PER_MINUTE} a minute.`);
          return done(await drafts.create(body.story, id));
        });
      route(scoped, { method: 'GET', url: '/api/authoring/stories/:id/draft', summary: "The story's draft (made from its newest version on first use), with the validator's report", tags: ['authoring'], auth: 'user', params: Id, response: DraftView },
        async ({ params, user }) => {
          await mayEdit(user?.id ?? '', params.id);
          const d = await drafts.open(params.id, user?.id ?? null);
          if (!d) throw notFound('Story not found.');
          return d;
        });
      route(scoped, { method: 'POST', url: '/api/authoring/stories/:id/changes', summary: 'Apply changes to the draft, made against base_revision: merged with changes to other fields since, 409 on the same field, 422 when the draft would not load', tags: ['authoring'], auth: 'user', params: Id,
        body: z.object({ base_revision: Base, changes: Changes, summary: z.string().min(1).max(200).optional() }).strict(), response: Written },
        async ({ params, body, user }) => {
          await mayEdit(user?.id ?? '', params.id, true);
          await drafts.ensure(params.id, user?.id ?? null);
          return done(await drafts.change(params.id, body.base_revision, body.changes, user?.id ?? '', body.summary));
        });
      route(scoped, { method: 'PUT', url: '/api/authoring/stories/:id/draft', summary: 'Replace the draft with a story file (an import as a new draft): one revision, field by field', tags: ['authoring'], auth: 'user', params: Id,
        body: z.object({ base_revision: Base, story: StoryFile }).strict(), response: Written },
        async ({ params, body, user }) => {
          await mayEdit(user?.id ?? '', params.id, true);
          await drafts.ensure(params.id, user?.id ?? null);
          return done(await drafts.replace(params.id, body.base_revision, body.story, user?.id ?? ''));
        });
      route(scoped, { method: 'GET', url: '/api/authoring/stories/:id/history', summary: "The draft's revisions, newest first: author, time, summary, changes and a field-by-field diff", tags: ['authoring'], auth: 'user', params: Id,
        query: z.object({ limit: z.coerce.number().int().min(1).max(200).default(50), before: z.coerce.number().int().min(1).optional() }), response: z.array(RevisionView) },
        async ({ params, query, user }) => {
          await mayEdit(user?.id ?? '', params.id);
          return drafts.history(params.id, query.limit, query.before);
        });
      route(scoped, { method: 'POST', url: '/api/authoring/stories/:id/restore', summary: 'Restore the draft as it was at a revision, as a new revision', tags: ['authoring'], auth: 'user', params: Id,
        body: z.object({ base_revision: Base, revision: Base }).strict(), response: Written },
        async ({ params, body, user }) => {
          await mayEdit(user?.id ?? '', params.id, true);
          return done(await drafts.restore(params.id, body.base_revision, body.revision, user?.id ?? ''));
        });
      route(scoped, { method: 'POST', url: '/api/authoring/stories/:id/publish', summary: 'Publish the draft (at base_revision, with no error) as the next version, with an optional note kept with it: new runs play it, runs under way keep theirs', tags: ['authoring'], auth: 'user', params: Id,
        body: z.object({ base_revision: Base, note: z.string().trim().min(1, 'must not be empty (leave it out instead)').max(500).optional() }).strict(), response: Written },
        async ({ params, body, user }) => {
          await mayEdit(user?.id ?? '', params.id, true);
          return done(await drafts.publish(params.id, body.base_revision, user?.id ?? '', body.note));
        });
      route(scoped, { method: 'GET', url: '/api/authoring/stories/:id/versions', summary: "The story's published versions, newest first", tags: ['authoring'], auth: 'user', params: Id, response: z.array(VersionView) },
        async ({ params, user }) => {
          await mayEdit(user?.id ?? '', params.id);
          return stories.versions(params.id);
        });
      route(scoped, { method: 'GET', url: '/api/authoring/stories/:id/export', summary: 'The story file of the draft (default) or of a published version, as stored (the key order of the file imported)', tags: ['authoring'], auth: 'user', params: Id,
        query: z.object({ version: z.coerce.number().int().min(1).optional() }), response: StoryFile },
        async ({ params, query, user }) => {
          await mayEdit(user?.id ?? '', params.id);
          const doc = query.version === undefined ? (await drafts.open(params.id, user?.id ?? null))?.document : await drafts.versionDocument(params.id, query.version);
          if (!doc) throw notFound(query.version === undefined ? 'Story not found.' : `Story ${params.id} has no version ${query.version}.`);
          return doc;
        });
      registered();
    });
  };
}
