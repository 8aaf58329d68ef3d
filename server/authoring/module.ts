// The authoring part of the server: story drafts, history, publishing and versions (server/store/drafts.ts) behind
// the /api/authoring routes, and the studio's stories list (templates, duplicates, deletion with a grace period and
// its hourly purge). Runs after the media part (it reuses its AuthorsRepo and media store) and the store part.
import type { RouteModule } from '../http/app.js';
import { DraftRepo } from '../store/drafts.js';
import { WorkshopRepo } from '../store/workshop.js';
import { authoringRoutes } from './routes.js';
import { entityRoutes } from './entity-routes.js';
import { workshopRoutes } from './workshop-routes.js';

declare module '../http/app.js' {
  interface Services {
    drafts: DraftRepo;
    workshop: WorkshopRepo;
  }
}

export const authoringModule: RouteModule = async (app, s) => {
  const log = s.log.child({ component: 'drafts' });
  s.drafts = new DraftRepo(s.db, s.stories, { onError: (e) => log.warn({ err: e }, 'a draft snapshot was not written') });
  // Snapshots are written after the answers: finish them before the database closes.
  s.onClose.push(() => s.drafts.flush());
  await authoringRoutes({ drafts: s.drafts, stories: s.stories, authors: s.authors })(app, s);
  await entityRoutes({ drafts: s.drafts, authors: s.authors })(app, s);
  s.workshop = new WorkshopRepo(s.db);
  await workshopRoutes({ drafts: s.drafts, stories: s.stories, authors: s.authors, workshop: s.workshop, media: s.media, storiesDir: s.config.STORIES_DIR })(app, s);
  const workshop = s.workshop;
  const purge = (): void => {
    workshop.purge(new Date()).then((ids) => {
      for (const id of ids) s.stories.forget(id);
      if (ids.length > 0) s.log.info({ purged: ids }, 'deleted stories purged after their grace period');
    }).catch((err: unknown) => s.log.warn({ err }, 'deleted stories purge failed'));
  };
  purge();
  const purger = setInterval(purge, 3_600_000);
  purger.unref();
  s.onClose.push(() => clearInterval(purger));
};
