// The media part of the server: local storage (MEDIA_DIR, default DATA_DIR/media) holding each story's files,
// filled at start from the stories' folders, and the /storage/v1 routes. Runs after the store part (it reads the
// catalogue).
import type { RouteModule } from '../http/app.js';
import { Renderer } from './render.js';
import { mediaRoutes } from './routes.js';
import { seedMedia } from './seed-media.js';
import { MediaStorage, mediaDir } from './storage.js';

declare module '../http/app.js' {
  interface Services {
    media: MediaStorage;
  }
}

export const mediaModule: RouteModule = async (app, s) => {
  s.media = new MediaStorage(mediaDir(s.config));
  await seedMedia(s.media, {
    ids: async () => (await s.stories.listCatalogue(null)).map((x) => x.id),
    get: (id) => s.stories.getStory(id),
  }, s.config.STORIES_DIR, s.log.child({ component: 'media' }));
  await mediaRoutes({
    storage: s.media,
    renderer: new Renderer(s.media),
    storyExists: async (id) => (await s.stories.getStory(id)) !== null,
  })(app, s);
};
