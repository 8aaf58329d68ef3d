// The shared game-screen model with its machines wired in, on a simulated clock: each output applied once, the voice
// loop's states and audio queue, burn-out once, forging 3000 + 5000 ms, awards 5000 ms each, the end-of-moment
// screen waiting for the last line and the results, the moment re-fetch 500 ms after a turn.
import { describe, expect, it } from 'vitest';
import { sampleGameOutput, SAMPLE_IDS } from '../../protocol/samples.js';
import type { GameOutput, OutputCharacter } from '../../schema/game-output.js';
import type { GameView } from '../../schema/views.js';
import type { TurnResult } from '../api/socket.js';
import { TimerHost } from '../clock.js';
import { SimulatedClock } from '../timers.js';
import { voiceButton } from '../voice-loop.js';
import { speakerText } from './text.js';
import { initialStep, type PlayEffect, type PlayEvent, type PlayModel, reducePlay, subScreenOf, visibleTeam } from './model.js';

function view(over: Partial<GameView> = {}): GameView {
  return {
    player_story_id: SAMPLE_IDS.playerStory, blueprint_story_id: SAMPLE_IDS.blueprintStory, blueprint_moment_id: SAMPLE_IDS.blueprintMoment,
    blueprint_place_id: null, moment_type: 'Learn', moment_name: 'The Log', moment_date: '1894-10-03T19:00', language: 'english',
    loop_rank: null, loop_number: 1, loop_current_number_of_interactions: 0, loop_max_number_of_interactions: 20,
    loop_status: 'loopStatusOnGoing', best_rank: null, background_rgba_color: 'rgba(0,0,0,1)', text_rgba_color: 'rgba(255,255,255,1)',
    control_rgba_color: 'rgba(255,200,0,1)', place_image_details: [], moment_image_details: [], character_image_details: [],
    do_not_display_character: false, battle_opponent_characters: [], enrolled_characters: [], player_items: [],
    is_moment_complete: false, battle_phase: 'initial', max_number_of_characters: null, card_images: {}, ...over,
  };
}

const hero = (over: Partial<OutputCharacter> = {}): OutputCharacter => ({ ...sampleGameOutput().player_characters[0]!, ...over });

function output(over: Partial<GameOutput> = {}): GameOutput {
  return {
    ...sampleGameOutput(), is_starting_dialogue: false, complete_the_moment: false, end_of_game: false, loop_status: 'loopStatusOnGoing',
    battle_state_next_phase: '', is_awarded: false, award_type: '', award_id: '', equipped_character_id: '', equipped_item_id: '',
    upgraded_character_id: '', golden_ticket_awarded: false, notifications: [], was_perfect_answer: false, was_cache_hit: false,
    sacrificed_properties: [], player_characters: [hero()], ...over,
  };
}

function result(outputs: GameOutput[], over: Partial<TurnResult> = {}): TurnResult {
  return { input_id: outputs[0]?.input_id ?? 'x', outputs, forging: [], modifiers: [], error: null, firstOutputMs: 1, lastOutputMs: 1, ...over };
}

/** The model run the way the controller runs it: timer effects on a simulated clock, other effects recorded. */
class Screen {
  model: PlayModel;
  readonly clock = new SimulatedClock();
  readonly effects: PlayEffect[] = [];
  readonly #timers = new TimerHost(this.clock, (key) => this.send({ type: 'timer', key }));

  constructor() {
    const first = initialStep('Story', { id: SAMPLE_IDS.playerStory, loop_max_number_of_interactions: 20, loop_current_number_of_interactions: 0 });
    this.model = first.model;
    this.#run(first.effects);
  }

  send(e: PlayEvent): this {
    const step = reducePlay(this.model, e);
    this.model = step.model;
    this.#run(step.effects);
    return this;
  }

  wait(ms: number): this {
    this.clock.advance(ms);
    return this;
  }

  #run(effects: readonly PlayEffect[]): void {
    this.#timers.run(effects);
    this.effects.push(...effects.filter((x) => x.type !== 'start_timer' && x.type !== 'cancel_timer'));
  }
}

describe('the game screen model (shared by the CLI and the web app)', () => {
  it('shows the words the server heard in place of a recording, also when the answer completes the moment', () => {
    const s = new Screen().send({ type: 'view', view: view() });
    s.send({ type: 'turn', result: result([output({ dialogue: 'Ask me.', is_starting_dialogue: true })]) });
    s.send({ type: 'sent' }).send({ type: 'said', text: '', audio: '1.2 s' });
    expect(s.model.lines.at(-1)).toMatchObject({ who: 'player', text: '[1.2 s]', pending: true });
    s.send({ type: 'turn', result: result([output({ dialogue: 'Come along.', transcribed_player_answer: 'yes come with us', complete_the_moment: true, next_moment_id: '6f1c2b7e-9a4d-4e8f-b1c3-2d5e7f9a0b1c' })]) });
    expect(s.model.lines.filter((l) => l.who === 'player').at(-1)).toMatchObject({ text: 'yes come with us', pending: false });
  });

  it('applies an output once: the same GAME_OUTPUT replayed after a reconnect changes nothing', () => {
    const s = new Screen().send({ type: 'view', view: view() });
    const o = output({ dialogue: 'Hello there.', transcribed_player_answer: 'hi', is_starting_dialogue: true });
    s.send({ type: 'turn', result: result([o]) });
    const once = s.model;
    s.send({ type: 'turn', result: result([o]) });
    expect(s.model.lines).toEqual(once.lines);
    expect(s.model.flow.processed).toHaveLength(1);
  });

  it('runs the voice loop: REC after 100 ms, thinking while processing, SKIP while a reply plays, then REC again', () => {
    const s = new Screen().send({ type: 'view', view: view() });
    expect(voiceButton(s.model.voice)).toMatchObject({ label: 'REC', enabled: false });
    s.wait(100);
    expect(voiceButton(s.model.voice)).toMatchObject({ label: 'REC', enabled: true });
    s.send({ type: 'sent' });
    expect(voiceButton(s.model.voice).state).toBe('PROCESSING');
    expect(s.effects).toContainEqual({ type: 'play_sound', sound: 'thinking', loop: true });
    s.send({ type: 'turn', result: result([output({ is_starting_dialogue: true })]) });
    s.send({ type: 'audio_received', audio: { id: 'a1', playerMomentId: SAMPLE_IDS.playerMoment } });
    s.send({ type: 'audio_received', audio: { id: 'a2', playerMomentId: SAMPLE_IDS.playerMoment } });
    expect(voiceButton(s.model.voice)).toMatchObject({ state: 'GAME_SPEAKING', label: 'SKIP' });
    expect(s.effects).toContainEqual({ type: 'play_audio', audio: { id: 'a1', playerMomentId: SAMPLE_IDS.playerMoment } });
    s.wait(500);
    expect(s.model.speaking.speaking).toBe(true);
    s.send({ type: 'voice_click' });
    expect(s.effects).toContainEqual({ type: 'discard_audio', ids: ['a2'] });
    expect(s.model.speaking.speaking).toBe(false);
    s.wait(100);
    expect(voiceButton(s.model.voice)).toMatchObject({ label: 'REC', enabled: true });
  });

  it('holds MOMENT COMPLETE until the last line is heard and the award (5000 ms) and forging (3000 + 5000 ms) are over', () => {
    const s = new Screen().send({ type: 'view', view: view() });
    s.send({ type: 'turn', result: result([output({ is_starting_dialogue: true })]) });
    s.send({ type: 'audio_received', audio: { id: 'a1', playerMomentId: SAMPLE_IDS.playerMoment } });
    const done = output({
      input_id: 'i2', complete_the_moment: true, next_moment_id: SAMPLE_IDS.nextMoment, is_awarded: true, award_type: 'item',
      award_id: SAMPLE_IDS.sword, equipped_character_id: SAMPLE_IDS.hero, equipped_item_id: SAMPLE_IDS.sword, awarded_property: 'bright',
    });
    s.send({ type: 'turn', result: result([done]) });
    expect(s.model.momentComplete).toBe(true);
    expect(s.model.awardShown.current?.label).toBe('New item');
    expect(s.model.forging.phase).toBe('character');
    expect(s.model.highlights.cardIds).toContain(SAMPLE_IDS.hero);
    expect(subScreenOf(s.model)).toBe('in_game');
    s.send({ type: 'audio_ended', id: 'a1' }).wait(5000);
    expect(s.model.awardShown.current).toBeNull();
    expect(s.model.forging.phase).toBe('item');
    expect(subScreenOf(s.model)).toBe('in_game');
    s.wait(3000);
    expect(s.model.forging.phase).toBe('hidden');
    expect(s.model.highlights.cardIds).toEqual([]);
    expect(subScreenOf(s.model)).toBe('end_of_moment');
  });

  it('shows the picture of a card won as the moment completes, before the next moment is entered', () => {
    const s = new Screen().send({ type: 'view', view: view({ moment_type: 'Reward' }) });
    s.send({ type: 'turn', result: result([output({ is_starting_dialogue: true })]) });
    const won = output({ input_id: 'i2', complete_the_moment: true, next_moment_id: SAMPLE_IDS.nextMoment, is_awarded: true, award_type: 'character', award_id: 'nell' });
    const next = view({ blueprint_moment_id: SAMPLE_IDS.nextMoment, moment_name: 'Next', card_images: { nell: 'images/character-nell.svg' } });
    s.send({ type: 'turn', result: result([won]), view: next });
    expect(s.model.momentComplete).toBe(true);
    // Still the completed moment on screen (MOMENT COMPLETE waits), but the new card has its picture.
    expect(s.model.view?.moment_name).toBe('The Log');
    expect(s.model.view?.card_images.nell).toBe('images/character-nell.svg');
  });

  it('burns a character out once (2000 ms), then hides it', () => {
    const s = new Screen().send({ type: 'view', view: view({ moment_type: 'Battle' }) });
    s.send({ type: 'turn', result: result([output({ player_characters: [hero({ character_current_health: 0, is_burned_out: true })] })]) });
    expect(s.model.burnOut.burning).toEqual([SAMPLE_IDS.hero]);
    expect(visibleTeam(s.model)).toHaveLength(1);
    s.wait(2000);
    expect(visibleTeam(s.model)).toHaveLength(0);
    s.send({ type: 'turn', result: result([output({ input_id: 'again', player_characters: [hero({ character_current_health: 0 })] })]) });
    expect(s.model.burnOut.burning).toEqual([]);
  });

  it('asks for the moment 500 ms after a turn that brought no view, once for a burst', () => {
    const s = new Screen().send({ type: 'view', view: view() });
    s.send({ type: 'turn', result: result([output({ input_id: 'a' })]) });
    s.wait(300).send({ type: 'turn', result: result([output({ input_id: 'b' })]) });
    s.wait(499);
    expect(s.effects.filter((e) => e.type === 'fetch_moment')).toHaveLength(0);
    s.wait(1);
    expect(s.effects.filter((e) => e.type === 'fetch_moment')).toHaveLength(1);
  });

  it('a failed turn stops the thinking state; Start next moment resets the voice loop and waits for the new moment', () => {
    const s = new Screen().send({ type: 'view', view: view() }).wait(100);
    s.send({ type: 'sent' }).send({ type: 'turn', result: result([], { error: "Sorry, I didn't catch that.", errorCode: 'stt/not_caught' }) });
    expect(voiceButton(s.model.voice).state).toBe('IDLE');
    expect(s.model.error).toBe("Sorry, I didn't catch that.");
    s.send({ type: 'turn', result: result([output({ input_id: 'c', complete_the_moment: true, next_moment_id: SAMPLE_IDS.nextMoment })]) });
    s.send({ type: 'next_moment' });
    expect(s.model.flow.playerMomentId).toBeNull();
    expect(s.model.momentStarted).toBe(false);
  });
});

describe('what the game screen shows a player (words, not data)', () => {
  it('a miss: the character line keeps the apology, the hint shows once (in its box), the player line says it was not caught', () => {
    const s = new Screen().send({ type: 'view', view: view() });
    s.send({ type: 'turn', result: result([output({ dialogue: 'Ask me.', is_starting_dialogue: true })]) });
    s.send({ type: 'sent' }).send({ type: 'said', text: '', audio: '3.1 s' });
    const hint = 'You can say, for example: "The market" or "The ferryman\'s cottage".';
    const miss = output({
      input_id: 'miss', dialogue: `Sorry, I didn't catch that. ${hint}`, transcribed_player_answer: '', interaction_counted: false,
      not_caught: { miss_number: 1, reason: 'not_heard', hint, choices: [] },
    });
    s.send({ type: 'turn', result: result([miss]) });
    expect(s.model.lines.filter((l) => l.who === 'player').at(-1)).toMatchObject({ text: 'Not caught', pending: false });
    expect(s.model.lines.filter((l) => l.who === 'character').at(-1)?.text).toBe("Sorry, I didn't catch that.");
    expect(s.model.lastOutput?.not_caught?.hint).toBe(hint);
  });

  it('an award card names the kind of award in words and the card it gave, never the internal source name', () => {
    const lens = { available_item_id: SAMPLE_IDS.sword, available_item_name: 'Moonstone Lens', available_item_properties: [], available_item_attack_bonus: 1, available_item_defense_bonus: 0 };
    for (const [type, label] of [['perfect_answer', 'Perfect answer'], ['dynamic_item', 'New item'], ['character', 'New character']] as const) {
      const s = new Screen().send({ type: 'view', view: view({ player_items: [lens] }) });
      s.send({ type: 'turn', result: result([output({ input_id: type, is_awarded: true, award_type: type, award_id: SAMPLE_IDS.sword })]) });
      expect(s.model.awardShown.current).toMatchObject({ label, text: 'Moonstone Lens' });
      expect(s.model.awards).toEqual([`Award: ${label}: Moonstone Lens`]);
    }
  });

  it('a speaker shows by name alone, whatever the emotion', () => {
    expect(speakerText('Nell')).toBe('Nell');
    expect(speakerText(null)).toBe('Character');
  });
});
