import { describe, expect, it } from 'vitest';
import { GameView, MomentView, StoryGraph } from '../schema/views.js';
import { Harness } from './test-harness.js';
import { T, testStory } from './test-story.js';
import { gameView, momentView, storyGraph } from './views.js';

describe('views', () => {
  it('the game view and moment view match their schemas and the state', () => {
    const h = new Harness(testStory);
    expect(gameView(h.state, testStory)).toBeNull();
    h.create({ language: 'french' });
    const g = GameView.parse(gameView(h.state, testStory));
    expect(g).toMatchObject({ moment_type: 'Monologue', moment_name: 'Intro (fr)', loop_number: 1, loop_max_number_of_interactions: 30, best_rank: null });
    expect(g.enrolled_characters.map((c) => c.character_name)).toEqual(['Hero', 'Sage']);
    expect(g.player_items.map((i) => i.available_item_name)).toEqual(['Lamp (fr)']);
    h.start();
    const m = MomentView.parse(momentView(h.state, testStory));
    expect(m).toMatchObject({ blueprint_moment_id: T.learn, skip_after_completion_count: 1, user_moment_completion_count: 0 });
  });
});

describe('game view cards and the story graph (game spec §2)', () => {
  const pic = (url: string) => [{ url, kind: 'image' as const }];
  const story = {
    ...testStory,
    characters: testStory.characters.map((c) => (c.id === T.hero ? { ...c, media: pic('images/hero.png') } : c.id === T.foeA ? { ...c, team_media: pic('images/gremlin.png') } : c)),
  };

  function toBattle(h: Harness): void {
    h.create();
    h.start();
    if (h.moment?.blueprint_moment_id === T.learn) {
      h.start();
      h.say('understood', { outcome: 'complete' });
    }
    h.start();
    h.say('left', { outcome: 'complete', next_moment_id: T.reward });
    h.start();
    h.say('the cloak', { award: { reward_type: 'item', id: T.cloak } });
    h.start();
  }

  it("carries each card's picture by id, and the Assemble maximum in Assemble moments only", () => {
    const h = new Harness(story);
    toBattle(h);
    const g = GameView.parse(gameView(h.state, story));
    const hero = h.character('Hero');
    const gremlin = h.state.opponents.find((o) => o.name === 'Gremlin');
    expect(g.card_images).toEqual({ [hero.id]: 'images/hero.png', [gremlin?.id ?? '']: 'images/gremlin.png' });
    expect(g.max_number_of_characters).toBeNull();
    h.state = { ...h.state, moments: h.state.moments.map((m) => (m.id === h.run.current_player_moment_id ? { ...m, blueprint_moment_id: T.assemble } : m)) };
    expect(gameView(h.state, story)).toMatchObject({ moment_type: 'Assemble', max_number_of_characters: 2 });
  });

  it('lists the moments of the run in order, the current last, with the opponents or the cards gained there', () => {
    const h = new Harness(story);
    toBattle(h);
    const g = StoryGraph.parse(storyGraph(h.state, story));
    expect(g.player_story_id).toBe(h.run.id);
    const last = g.nodes.at(-1);
    expect(last).toMatchObject({ moment_type: 'Battle', status: 'current' });
    expect(last?.cards.map((c) => [c.kind, c.name])).toEqual([['opponent', 'Gremlin'], ['opponent', 'Ogre']]);
    const reward = g.nodes.find((n) => n.moment_type === 'Reward');
    expect(reward).toMatchObject({ status: 'complete', cards: [{ kind: 'item', name: 'Cloak' }] });
    expect(g.nodes[0]).toMatchObject({ moment_type: 'Monologue', moment_name: 'Intro', status: 'complete', cards: [] });
    expect(g.nodes.filter((n) => n.status === 'current')).toHaveLength(1);
    expect(storyGraph(new Harness(story).state, story)).toBeNull();
  });
});
