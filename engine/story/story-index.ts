// Lookup tables over a story, built once per story object (stories are immutable once parsed).
import type { BlueprintCharacter, BlueprintItem, BlueprintMoment, BlueprintPlace, Story } from './format.js';

export type StoryIndex = {
  moments: Map<string, BlueprintMoment>;
  characters: Map<string, BlueprintCharacter>;
  items: Map<string, BlueprintItem>;
  places: Map<string, BlueprintPlace>;
};

const cache = new WeakMap<Story, StoryIndex>();

export function indexStory(story: Story): StoryIndex {
  let idx = cache.get(story);
  if (!idx) {
    idx = {
      moments: new Map(story.moments.map((m) => [m.id, m])),
      characters: new Map(story.characters.map((c) => [c.id, c])),
      items: new Map(story.items.map((i) => [i.id, i])),
      places: new Map(story.places.map((p) => [p.id, p])),
    };
    cache.set(story, idx);
  }
  return idx;
}
