import { describe, expect, it } from 'vitest';
import { Simulator } from './timers.js';
import {
  AWARD_DISPLAY_MS, type AwardDisplay, CARD_HIGHLIGHT_MS, DIALOGUE_SPEAKING_DELAY_MS, MOMENT_FETCH_DEBOUNCE_MS,
  NOT_SPEAKING, transitionAwards, transitionHighlights, transitionMomentFetch, transitionSpeaking,
} from './animations.js';

interface Award { readonly id: string }

describe('timed displays', () => {
  it('use the spec numbers', () => {
    expect([CARD_HIGHLIGHT_MS, AWARD_DISPLAY_MS, DIALOGUE_SPEAKING_DELAY_MS, MOMENT_FETCH_DEBOUNCE_MS]).toEqual([4000, 5000, 500, 500]);
  });

  it('highlights a card for 4000 ms from its latest highlight', () => {
    const d = new Simulator(transitionHighlights, { cardIds: [] as readonly string[] });
    d.send({ type: 'highlight', cardId: 'a' }).wait(3000).send({ type: 'highlight', cardId: 'b' });
    expect(d.state.cardIds).toEqual(['a', 'b']);
    d.wait(999);
    expect(d.state.cardIds).toEqual(['a', 'b']);
    d.wait(1);
    expect(d.state.cardIds).toEqual(['b']);
    d.send({ type: 'highlight', cardId: 'b' }).wait(3999);
    expect(d.state.cardIds).toEqual(['b']);
    d.wait(1);
    expect(d.state.cardIds).toEqual([]);
  });

  it('shows each award for 5000 ms, one after the other', () => {
    const empty: AwardDisplay<Award> = { current: null, queue: [] };
    const d = new Simulator(transitionAwards<Award>, empty);
    d.send({ type: 'award', award: { id: 'x' } }).send({ type: 'award', award: { id: 'y' } }).send({ type: 'award', award: { id: 'x' } });
    expect(d.state).toEqual({ current: { id: 'x' }, queue: [{ id: 'y' }] });
    d.wait(4999);
    expect(d.state.current?.id).toBe('x');
    d.wait(1);
    expect(d.state.current?.id).toBe('y');
    d.send({ type: 'dismiss' });
    expect(d.state).toEqual(empty);
    d.wait(10_000);
    expect(d.state).toEqual(empty);
  });

  it('turns the dialogue speaking state on 500 ms after audio starts and off at once', () => {
    const d = new Simulator(transitionSpeaking, NOT_SPEAKING).send({ type: 'audio_started' });
    d.wait(499);
    expect(d.state.speaking).toBe(false);
    d.wait(1);
    expect(d.state.speaking).toBe(true);
    d.send({ type: 'audio_stopped' });
    expect(d.state).toEqual(NOT_SPEAKING);
    // A line shorter than the delay never shows as speaking.
    d.send({ type: 'audio_started' }).wait(300).send({ type: 'audio_stopped' }).wait(1000);
    expect(d.state).toEqual(NOT_SPEAKING);
  });

  it('fetches the moment once, 500 ms after the last of a burst of changes', () => {
    const d = new Simulator(transitionMomentFetch, { scheduled: false });
    d.send({ type: 'state_changed' }).wait(400).send({ type: 'state_changed' }).wait(400);
    expect(d.effects).toEqual([]);
    d.send({ type: 'state_changed' }).wait(499);
    expect(d.effects).toEqual([]);
    d.wait(1);
    expect(d.effects).toEqual([{ type: 'fetch_moment' }]);
    d.wait(5000);
    expect(d.effects).toEqual([]);
  });
});
