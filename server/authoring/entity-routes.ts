// Which story a character, item or place belongs to, for the studio's entity pages: their addresses
// (/admin/characters/{id}, /admin/items/{id}, /admin/places/{id}) carry no story id. Only the stories the caller may
// edit are searched (their drafts, or their newest version when no draft was made yet), so the answer says nothing
// about anyone else's stories: an id found elsewhere is as unknown as one found nowhere.
import { z } from 'zod';
import type { Json } from '../../engine/authoring/apply.js';
import type { RouteModule } from '../http/app.js';
import { HttpError, notFound } from '../http/errors.js';
import { route } from '../http/route.js';
import type { AuthorsRepo } from '../store/authors.js';
import type { DraftRepo } from '../store/drafts.js';

const ENTITY_COLLECTIONS = ['characters', 'items', 'places'] as const;

export const EntityHome = z.object({
  story_id: z.string(),
  story_name: z.string(),
  collection: z.enum(ENTITY_COLLECTIONS),
});

/** The collection of `doc` holding an entity with this id, or null. */
export function collectionOf(doc: Json, id: string): (typeof ENTITY_COLLECTIONS)[number] | null {
  for (const c of ENTITY_COLLECTIONS) {
    const list = doc[c];
    if (Array.isArray(list) && list.some((e) => typeof e === 'object' && e !== null && (e as Json).id === id)) return c;
  }
  return null;
}

export function entityRoutes(deps: { drafts: DraftRepo; authors: AuthorsRepo }): RouteModule {
  const { drafts, authors } = deps;
  return (app) => {
    route(app, {
      method: 'GET', url: '/api/authoring/entities/:id', tags: ['authoring'], auth: 'user',
      summary: 'The story (among those the caller may edit) holding the character, item or place with this id, and which of the three it is',
      params: z.object({ id: z.uuid({ message: 'must be a character, item or place id (UUID)' }) }), response: EntityHome,
    }, async ({ params, user }) => {
      const userId = user?.id ?? '';
      const role = await authors.userRole(userId);
      if (role === 'player') throw new HttpError(403, 'authoring/forbidden', 'The studio is for story makers: ask an admin to give your account the author role.');
      for (const s of await drafts.workshop(userId, role === 'admin')) {
        const doc = s.draft_revision !== null ? (await drafts.open(s.id, userId))?.document
          : s.published_version !== null ? await drafts.versionDocument(s.id, s.published_version) : null;
        const collection = doc ? collectionOf(doc, params.id) : null;
        if (collection) return { story_id: s.id, story_name: s.name, collection };
      }
      throw notFound('No character, item or place with this id in the stories you can edit.');
    });
    return Promise.resolve();
  };
}
