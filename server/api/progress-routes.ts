// The signed-in player's progress per story they started (runs, best rank, moments reached): the personal
// catalogue's Continue row and the profile page read it. Real progress, where the spec's Continue row was random.
import { z } from 'zod';
import { storyProgress } from '../../engine/catalogue/progress.js';
import type { RouteModule } from '../http/app.js';
import { route } from '../http/route.js';
import type { GameStorePort, StoryStorePort } from '../game/ports.js';
import type { CatalogueStorePort } from './catalogue-routes.js';

export const StoryProgressRow = z.object({
  blueprint_story_id: z.string(),
  runs: z.number().int(),
  best_rank: z.string().nullable(),
  successful_runs: z.number().int(),
  moments_reached: z.number().int(),
  moments_total: z.number().int(),
  fraction: z.number(),
  ongoing_player_story_id: z.string().nullable(),
});

export function progressRoutes(deps: { catalogue: CatalogueStorePort; stories: StoryStorePort; store: GameStorePort }): RouteModule {
  return (app) => {
    route(app, { method: 'GET', url: '/api/me/progress', summary: "The caller's progress in each story they started: runs, best rank, moments reached", tags: ['catalogue'], auth: 'user', response: z.array(StoryProgressRow) },
      async ({ user }) => {
        const userId = user?.id ?? '';
        const started = (await deps.catalogue.listCatalogue(userId)).filter((s) => s.user_started);
        const rows = await Promise.all(started.map(async (s) => {
          const [loaded, story] = await Promise.all([deps.store.loadState(userId, s.id), deps.stories.getStory(s.id)]);
          if (!loaded || !story) return null;
          return storyProgress(s.id, loaded.state, story.moments.map((m) => m.id));
        }));
        return rows.filter((r) => r !== null);
      });
  };
}
