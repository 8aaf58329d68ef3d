// Story archives over HTTP: GET /api/stories/:id/archive gives a story with its media as one tar (its authors and
// admins); POST /api/stories/archive imports one (a new story by an author or admin; an existing one by its authors
// and admins). The body is read only from a signed-in user, up to STORY_ARCHIVE_MAX_BYTES.
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ArchiveLimits } from '../../engine/story/archive.js';
import type { RouteModule } from '../http/app.js';
import { HttpError, notFound, unauthorized } from '../http/errors.js';
import { route } from '../http/route.js';
import type { AuthorsRepo } from '../store/authors.js';
import { checkStoryArchive, exportStoryArchive, writeStoryArchive, type ArchiveDeps, type ArchiveRefusal } from './story-archive.js';
import { sizeText, type StoredQuota } from './stored-quota.js';

export const TAR = 'application/x-tar';
const Id = z.object({ id: z.uuid({ message: 'must be a story id (UUID)' }) });
const Imported = z.object({ id: z.string(), name: z.string(), media: z.number().int(), replaced: z.boolean(), warnings: z.number().int() });

export type ArchiveRouteDeps = ArchiveDeps & { authors: AuthorsRepo; stored: StoredQuota; limits: ArchiveLimits };

const refused = (r: ArchiveRefusal): HttpError => new HttpError(r.status, r.code, r.message);

export function archiveRoutes(deps: ArchiveRouteDeps): RouteModule {
  async function mayChange(req: FastifyRequest, storyId: string): Promise<string> {
    if (!req.user) throw unauthorized();
    // A story maker's role first: a player listed among a story's authors still may not (the studio's rule).
    if ((await deps.authors.userRole(req.user.id)) === 'player' || (await deps.authors.roleFor(req.user.id, storyId)) === null) {
      throw new HttpError(403, 'story/forbidden', "Only the story's authors and admins may export or replace it.");
    }
    return req.user.id;
  }

  return async (app) => {
    await app.register((scope, _opts, done) => {
      scope.addContentTypeParser(TAR, { parseAs: 'buffer', bodyLimit: deps.limits.maxTotalBytes }, (_req, body, next) => next(null, body));
      // No body is read from a caller without a valid token.
      scope.addHook('onRequest', (req, _reply, next) => {
        if (req.method === 'POST' && !req.user) next(unauthorized());
        else next();
      });
      scope.setErrorHandler((err: Error & { code?: string }) => {
        if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw new HttpError(413, 'archive/too_large', `The archive is larger than ${sizeText(deps.limits.maxTotalBytes)} (STORY_ARCHIVE_MAX_BYTES).`);
        if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') throw new HttpError(415, 'archive/not_tar', `Send the archive as ${TAR}.`);
        throw err;
      });

      route(scope, { method: 'GET', url: '/api/stories/:id/archive', summary: 'The story file with its media as one tar archive (story.json, media/image/*, media/sound/*); its authors and admins', tags: ['stories'], auth: 'user', params: Id, produces: TAR },
        async ({ req, reply, params }) => {
          if ((await deps.stories.getStory(params.id)) === null) throw notFound('Story not found.');
          await mayChange(req, params.id);
          const out = await exportStoryArchive(deps, params.id, deps.limits);
          if (out === null) throw notFound('Story not found.');
          if (!out.ok) throw refused(out);
          await reply.header('content-type', TAR).header('content-disposition', `attachment; filename="${params.id}.tar"`).send(Buffer.from(out.bytes));
          return undefined;
        });

      route(scope, { method: 'POST', url: '/api/stories/archive', summary: 'Import a story archive (as GET .../archive gives it): a new story (authors and admins) or a new copy of one you may change; checked whole before anything is written', tags: ['stories'], auth: 'user', response: Imported },
        async ({ req, reply }) => {
          const body: unknown = req.body;
          if (!Buffer.isBuffer(body) || body.length === 0) throw new HttpError(400, 'archive/empty', `Send the archive's bytes as ${TAR}.`);
          const user = req.user;
          if (!user) throw unauthorized();
          const checked = await checkStoryArchive(body, deps.limits);
          if (!checked.ok) throw refused(checked);
          const exists = (await deps.stories.getStory(checked.story.id)) !== null;
          if (exists) await mayChange(req, checked.story.id);
          else if ((await deps.authors.userRole(user.id)) === 'player') throw new HttpError(403, 'story/forbidden', 'Only authors and admins may import a new story.');
          const written = await writeStoryArchive(deps, checked, { stored: deps.stored, userId: user.id });
          if (!written.ok) throw refused(written);
          if (!exists) await deps.authors.addAuthor(checked.story.id, user.id);
          req.log.info({ story_id: checked.story.id, media: written.files, replaced: exists, user: user.id }, 'story archive imported');
          void reply.code(exists ? 200 : 201);
          return { id: checked.story.id, name: checked.story.name, media: written.files, replaced: exists, warnings: checked.warnings };
        });
      done();
    });
  };
}
