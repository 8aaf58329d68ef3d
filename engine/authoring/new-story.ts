// New stories for the studio: the smallest story that validates (a Monologue leading to an Epilogue, told by one
// character, in English and French), and a copy of a story under new ids (a duplicate, or a story made from a
// template), so it can live beside the original: ids are primary keys across stories. Pure: ids and time come in.
import type { Json } from './apply.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The longest story name (engine/story/format.ts). */
export const MAX_STORY_NAME = 120;

/** `name` with " (copy)" after it, cut so the whole stays a valid story name. */
export function copyName(name: string): string {
  const suffix = ' (copy)';
  return `${name.slice(0, MAX_STORY_NAME - suffix.length)}${suffix}`;
}

/**
 * The story under new ids: every string that is a UUID (an entity's id or a reference to one) becomes a new id, the
 * same old id always the same new one, so references still meet. Media paths are left alone (the caller copies the
 * files). The copy gets `name` and a catalogue created now.
 */
export function withFreshIds(doc: Json, newId: () => string, name: string, nowIso: string): Json {
  const ids = new Map<string, string>();
  const walk = (x: unknown): unknown => {
    if (typeof x === 'string') {
      if (!UUID.test(x)) return x;
      const key = x.toLowerCase();
      let n = ids.get(key);
      if (n === undefined) {
        n = newId();
        ids.set(key, n);
      }
      return n;
    }
    if (Array.isArray(x)) return x.map(walk);
    if (typeof x === 'object' && x !== null) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(x)) out[k] = walk(v);
      return out;
    }
    return x;
  };
  const out = walk(doc) as Json;
  out.name = name.slice(0, MAX_STORY_NAME);
  const cat = out.catalogue;
  if (typeof cat === 'object' && cat !== null && !Array.isArray(cat)) {
    const c = cat as Record<string, unknown>;
    c.created_at = nowIso;
    // A new story has no players' votes yet.
    if ('positive_count' in c) c.positive_count = 0;
    if ('negative_count' in c) c.negative_count = 0;
  }
  return out;
}

/** The smallest story that validates and can be published: a narrator's Monologue, then an Epilogue. */
export function blankStory(newId: () => string, name: string, nowIso: string): Json {
  const [story, narrator, opening, ending] = [newId(), newId(), newId(), newId()];
  const day = nowIso.slice(0, 10);
  return {
    format_version: 1,
    id: story,
    name: name.slice(0, MAX_STORY_NAME),
    catalogue: {
      description: { en: 'A new story.', fr: 'Une nouvelle histoire.' },
      created_at: nowIso,
    },
    first_moment_id: opening,
    characters: [{ id: narrator, name: 'Narrator', base_attack: 1, base_health: 10, is_enrolled_by_default: true }],
    items: [],
    places: [],
    moments: [
      {
        id: opening, name: { en: 'Opening', fr: 'Ouverture' }, date: `${day}T09:00:00`, type: 'Monologue', character_id: narrator,
        transitions: [{ next_moment_id: ending }],
        opening: [{ en: 'Once upon a time...', fr: 'Il était une fois...' }],
      },
      {
        id: ending, name: { en: 'The end', fr: 'Fin' }, date: `${day}T09:05:00`, type: 'Epilogue', character_id: narrator,
        opening: [{ en: 'And that is the end of the story.', fr: "Et c'est la fin de l'histoire." }],
      },
    ],
  };
}
