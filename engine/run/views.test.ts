import { describe, expect, it } from 'vitest';
import { GameView, MomentView } from '../schema/views.js';
import { Harness } from './test-harness.js';
import { T, testStory } from './test-story.js';
import { gameView, momentView } from './views.js';

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
