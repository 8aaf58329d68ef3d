// The authoring part of the server: story drafts, history, publishing and versions (server/store/drafts.ts) behind
// the /api/authoring routes. Runs after the media part (it reuses its AuthorsRepo) and the store part (StoryRepo).
import type { RouteModule } from '../http/app.js';
import { DraftRepo } from '../store/drafts.js';
import { authoringRoutes } from './routes.js';
import { entityRoutes } from './entity-routes.js';

declare module '../http/app.js' {
  interface Services {
    drafts: DraftRepo;
  }
}

export const authoringModule: RouteModule = async (app, s) => {
  const log = s.log.child({ component: 'drafts' });
  s.drafts = new DraftRepo(s.db, s.stories, { onError: (e) => log.warn({ err: e }, 'a draft snapshot was not written') });
  // Snapshots are written after the answers: finish them before the database closes.
  s.onClose.push(() => s.drafts.flush());
  await authoringRoutes({ drafts: s.drafts, stories: s.stories, authors: s.authors })(app, s);
  await entityRoutes({ drafts: s.drafts, authors: s.authors })(app, s);
};
