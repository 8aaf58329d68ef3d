// The store part of the server: the story and game repositories in the shared services, and the fixture stories
// seeded at start when the catalogue is empty (SEED_STORIES).
import type { RouteModule } from '../http/app.js';
import { GameRepo } from './game.js';
import { seedStories } from './seed.js';
import { StoryRepo } from './stories.js';

declare module '../http/app.js' {
  interface Services {
    stories: StoryRepo;
    game: GameRepo;
  }
}

export const storeModule: RouteModule = async (_app, services) => {
  services.stories = new StoryRepo(services.db);
  services.game = new GameRepo(services.db);
  if (services.config.SEED_STORIES) {
    await seedStories(services.stories, services.config.STORIES_DIR, services.log.child({ component: 'seed' }));
  }
};
