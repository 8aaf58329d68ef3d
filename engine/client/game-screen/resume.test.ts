// The kept turn a reload resumes: it parses only for its own run, and it is kept while the turn's answer, award,
// forging or MOMENT COMPLETE is still to be seen.
import { describe, expect, it } from 'vitest';
import { sampleGameOutput, SAMPLE_IDS, sampleUserInput } from '../../protocol/samples.js';
import type { GameOutput } from '../../schema/game-output.js';
import type { GameView } from '../../schema/views.js';
import { initialModel, type PlayEvent, type PlayModel, reducePlay } from './model.js';
import { parseUnseenTurn, presentationPending } from './resume.js';

function view(): GameView {
  return {
    player_story_id: SAMPLE_IDS.playerStory, blueprint_story_id: SAMPLE_IDS.blueprintStory, blueprint_moment_id: SAMPLE_IDS.blueprintMoment,
    blueprint_place_id: null, moment_type: 'Reward', moment_name: 'Nell at the Quay', moment_date: '1894-10-03T19:00', language: 'english',
    loop_rank: null, loop_number: 1, loop_current_number_of_interactions: 0, loop_max_number_of_interactions: 20,
    loop_status: 'loopStatusOnGoing', best_rank: null, background_rgba_color: 'rgba(0,0,0,1)', text_rgba_color: 'rgba(255,255,255,1)',
    control_rgba_color: 'rgba(255,200,0,1)', place_image_details: [], moment_image_details: [], character_image_details: [],
    do_not_display_character: false, battle_opponent_characters: [], enrolled_characters: [], player_items: [],
    is_moment_complete: false, battle_phase: 'initial', max_number_of_characters: null, card_images: {},
  };
}

function output(over: Partial<GameOutput>): GameOutput {
  return {
    ...sampleGameOutput(), is_starting_dialogue: false, complete_the_moment: false, end_of_game: false, loop_status: 'loopStatusOnGoing',
    battle_state_next_phase: '', is_awarded: false, award_type: '', award_id: '', equipped_character_id: '', equipped_item_id: '',
    upgraded_character_id: '', golden_ticket_awarded: false, notifications: [], ...over,
  };
}

function play(events: PlayEvent[]): PlayModel {
  return events.reduce((m, e) => reducePlay(m, e).model, initialModel('Story', { id: SAMPLE_IDS.playerStory, loop_max_number_of_interactions: 20, loop_current_number_of_interactions: 0 }));
}

const turn = (o: GameOutput): PlayEvent => ({ type: 'turn', result: { input_id: o.input_id, outputs: [o], forging: [], modifiers: [], error: null, firstOutputMs: 1, lastOutputMs: 1 } });

describe('the turn a reload resumes', () => {
  it('parses only a well-formed snapshot of this run', () => {
    const input = { ...sampleUserInput(), player_story_id: SAMPLE_IDS.playerStory, transcription: 'Yes, come with us!' };
    const text = JSON.stringify({ run_id: SAMPLE_IDS.playerStory, input, view: view() });
    expect(parseUnseenTurn(text, SAMPLE_IDS.playerStory)?.input.transcription).toBe('Yes, come with us!');
    expect(parseUnseenTurn(text, SAMPLE_IDS.nextMoment)).toBeNull();
    expect(parseUnseenTurn('{"run_id":', SAMPLE_IDS.playerStory)).toBeNull();
    expect(parseUnseenTurn(JSON.stringify({ run_id: SAMPLE_IDS.playerStory, input: { transcription: 3 }, view: null }), SAMPLE_IDS.playerStory)).toBeNull();
    expect(parseUnseenTurn(null, SAMPLE_IDS.playerStory)).toBeNull();
  });

  it('is kept while the answer is awaited, the award shows and MOMENT COMPLETE waits; not after a plain answer', () => {
    const started = play([{ type: 'view', view: view(), started: true }]);
    expect(started.momentStarted).toBe(true);
    expect(presentationPending(started)).toBe(false);
    expect(presentationPending(play([{ type: 'view', view: view() }, { type: 'sent' }]))).toBe(true);
    expect(presentationPending(play([{ type: 'view', view: view() }, { type: 'sent' }, turn(output({ input_id: 'plain' }))]))).toBe(false);
    const awarded = play([
      { type: 'view', view: view(), started: true }, { type: 'sent' },
      turn(output({ input_id: 'nell', is_awarded: true, award_type: 'character', award_id: SAMPLE_IDS.hero, complete_the_moment: true, next_moment_id: SAMPLE_IDS.nextMoment })),
    ]);
    expect(awarded.awardShown.current?.label).toBe('New character');
    expect(presentationPending(awarded)).toBe(true);
    const afterAward = reducePlay(awarded, { type: 'dismiss_award' }).model;
    expect(presentationPending(afterAward)).toBe(true); // MOMENT COMPLETE still to see
    expect(presentationPending(reducePlay(afterAward, { type: 'next_moment' }).model)).toBe(false);
  });
});
