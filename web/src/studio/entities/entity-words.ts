// How the entity screens name their collections.
import type { EntityCollection } from '../../../../engine/story/entity-fields.js';

export const ONE: Record<EntityCollection, string> = { characters: 'character', items: 'item', places: 'place' };
export const MANY: Record<EntityCollection, string> = { characters: 'Characters', items: 'Items', places: 'Places' };
