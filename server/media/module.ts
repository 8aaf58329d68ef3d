// The media part of the server: the media store (store.ts: disk, database or Supabase Storage) holding each story's
// files, filled at start from the stories' folders, and the /storage/v1 routes. Runs after the store part (it reads the
// catalogue).
import { WorkshopRepo } from '../store/workshop.js';
import type { RouteModule } from '../http/app.js';
import { AuthorsRepo } from '../store/authors.js';
import { UploadQuota } from './quota.js';
import { Renderer } from './render.js';
import { parseRenderSizes, SPEC_SIZES } from './render-sizes.js';
import { archiveRoutes } from './archive-routes.js';
import { mediaRoutes } from './routes.js';
import { archiveLimits } from './story-archive.js';
import { seedMedia } from './seed-media.js';
import { StoredQuota } from './stored-quota.js';
import { openMediaStore, type MediaStore } from './store.js';

declare module '../http/app.js' {
  interface Services {
    media: MediaStore;
    /** Story authors and admins (who may change a story). */
    authors: AuthorsRepo;
    renderer: Renderer;
  }
}

export const mediaModule: RouteModule = async (app, s) => {
  s.media = await openMediaStore(s.config, s.db);
  s.log.info({ media_store: s.media.kind }, 'media store');
  s.authors = new AuthorsRepo(s.db);
  const authors = s.authors;
  const extra = parseRenderSizes(s.config.MEDIA_RENDER_SIZES);
  s.renderer = new Renderer(s.media, {
    concurrency: s.config.RENDER_CONCURRENCY, queue: s.config.RENDER_QUEUE,
    sizes: [...SPEC_SIZES, ...(typeof extra === 'string' ? [] : extra)],
  });
  await seedMedia(s.media, {
    ids: async () => (await s.stories.listCatalogue(null)).map((x) => x.id),
    get: (id) => s.stories.getStory(id),
  }, s.config.STORIES_DIR, s.log.child({ component: 'media' }));
  const shelf = new WorkshopRepo(s.db);
  const stored = new StoredQuota(s.media, s.db, { storyBytes: s.config.MEDIA_STORY_BYTES, authorBytes: s.config.MEDIA_AUTHOR_BYTES });
  await mediaRoutes({
    storage: s.media,
    renderer: s.renderer,
    renderPerMinute: s.config.RENDER_PER_MINUTE,
    // A story made in the studio is a draft until its first publish: its authors upload its media before that.
    storyExists: (id) => shelf.exists(id),
    canWrite: async (userId, storyId) => (await authors.roleFor(userId, storyId)) !== null,
    quota: new UploadQuota(s.db, s.config.MEDIA_USER_DAILY_BYTES),
    stored,
    maxFileBytes: s.config.MEDIA_MAX_FILE_BYTES,
  })(app, s);
  await archiveRoutes({ stories: s.stories, media: s.media, authors, stored, limits: archiveLimits(s.config) })(app, s);
};
