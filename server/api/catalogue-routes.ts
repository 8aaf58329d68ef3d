// Catalogue routes: the public static catalogue, the personal catalogue (ratings view + user_started) and a story's
// detail with its moments, for the catalogue, the story modal and the carousel.
import { z } from 'zod';
import type { CatalogueStory, StaticCatalogue } from '../../engine/schema/views.js';
import { CatalogueStory as CatalogueStorySchema, StaticCatalogue as StaticCatalogueSchema } from '../../engine/schema/views.js';
import type { Story } from '../../engine/story/format.js';
import { localize } from '../../engine/story/text.js';
import type { Config } from '../config.js';
import type { RouteModule } from '../http/app.js';
import { notFound } from '../http/errors.js';
import { route } from '../http/route.js';
import { publicImageUrl } from '../media/urls.js';

export interface CatalogueStorePort {
  listCatalogue(userId: string | null): Promise<CatalogueStory[]>;
  staticCatalogue(): Promise<StaticCatalogue>;
  getStory(id: string): Promise<Story | null>;
}

const StoryId = z.object({ id: z.uuid({ message: 'must be a story id (UUID)' }) });

/** Story-relative image paths become public storage URLs. */
export function withMediaUrls(config: Config, s: CatalogueStory): CatalogueStory {
  return {
    ...s,
    background_image: publicImageUrl(config, s.id, s.background_image),
    story_logo_image: publicImageUrl(config, s.id, s.story_logo_image),
    sampleImages: (s.sampleImages.length ? s.sampleImages : [s.background_image]).map((u) => publicImageUrl(config, s.id, u)),
  };
}

export const StoryDetail = z.object({
  story: CatalogueStorySchema,
  moments: z.array(z.object({ id: z.string(), name: z.string(), type: z.string(), date: z.string(), place_images: z.array(z.string()), character_images: z.array(z.string()) })),
  loop_max_number_of_interactions: z.number().int(),
  sound_intro: z.string().nullable(),
});

export function catalogueRoutes(deps: { stories: CatalogueStorePort }): RouteModule {
  return (app, s) => {
    route(app, { method: 'GET', url: '/data/catalogue.json', summary: 'Public catalogue (static file shape): stories and lastUpdated', tags: ['catalogue'], auth: 'none', response: StaticCatalogueSchema },
      async () => {
        const c = await deps.stories.staticCatalogue();
        return { ...c, stories: c.stories.map((x) => withMediaUrls(s.config, x)) };
      });
    route(app, { method: 'GET', url: '/api/stories', summary: 'Stories of the ratings view, newest first, with user_started for the caller', tags: ['catalogue'], auth: 'optional', response: z.array(CatalogueStorySchema) },
      async ({ user }) => (await deps.stories.listCatalogue(user?.id ?? null)).map((x) => withMediaUrls(s.config, x)));
    route(app, { method: 'GET', url: '/api/stories/:id', summary: "A story's detail with its moments (oldest first) and their images", tags: ['catalogue'], auth: 'optional', params: StoryId, response: StoryDetail },
      async ({ params, user }) => {
        const story = await deps.stories.getStory(params.id);
        const row = (await deps.stories.listCatalogue(user?.id ?? null)).find((x) => x.id === params.id);
        if (!story || !row) throw notFound('Story not found.');
        const place = new Map(story.places.map((p) => [p.id, p]));
        const chars = new Map(story.characters.map((c) => [c.id, c]));
        return {
          story: withMediaUrls(s.config, row),
          moments: story.moments.map((m) => ({
            id: m.id, name: localize(m.name, 'english'), type: m.type, date: m.date,
            place_images: (m.place_id ? place.get(m.place_id)?.media ?? [] : []).map((x) => publicImageUrl(s.config, story.id, x.url)),
            character_images: (m.character_id ? chars.get(m.character_id)?.media ?? [] : []).map((x) => publicImageUrl(s.config, story.id, x.url)),
          })),
          loop_max_number_of_interactions: story.loop_max_number_of_interactions ?? 30,
          sound_intro: story.catalogue.sound_intro ?? null,
        };
      });
  };
}
