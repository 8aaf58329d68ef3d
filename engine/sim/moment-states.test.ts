import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { currentMoment } from '../run/state.js';
import { Story } from '../story/format.js';
import { statesByMoment } from './moment-states.js';

it('finds a started state for every moment of a fixture story where the player speaks', () => {
  const story = Story.parse(JSON.parse(readFileSync('fixtures/stories/lantern-keeper/story.json', 'utf8')));
  const states = statesByMoment(story, { runs: 10 });
  const speaking = story.moments.filter((m) => m.say);
  for (const m of speaking) {
    const s = states.get(m.id)?.[0];
    expect(s, m.name.en).toBeDefined();
    expect(currentMoment(s!)?.blueprint_moment_id).toBe(m.id);
    expect(currentMoment(s!)?.is_started).toBe(true);
  }
  // Deterministic for a seed.
  expect([...statesByMoment(story, { runs: 10 }).keys()]).toEqual([...states.keys()]);
});
