import { describe, expect, it } from 'vitest';
import { sampleGameOutput } from '../protocol/samples.js';
import type { GameOutput } from '../schema/game-output.js';
import { applyOutput, initialMomentFlow } from './moment-flow.js';

const base: GameOutput = { ...sampleGameOutput(), complete_the_moment: false, end_of_game: false, loop_status: 'loopStatusOnGoing', battle_state_next_phase: '' };
const flow = () => initialMomentFlow(base.player_story_id, base.player_moment_id);

describe('client moment flow (game spec §4)', () => {
  it('ignores an output already processed, and any output while the moment lacks its ids', () => {
    const a = applyOutput(flow(), base);
    expect(a.applied).toBe(true);
    expect(applyOutput(a.state, base)).toMatchObject({ applied: false, reason: 'already_processed' });
    expect(applyOutput(initialMomentFlow(null, null), base)).toMatchObject({ applied: false, reason: 'no_moment' });
  });

  it("adds the player's answer only when non-blank, different from the last entry and history is non-empty", () => {
    const opened = applyOutput(flow(), { ...base, is_starting_dialogue: true, dialogue: 'Hello.' }).state;
    const blank = applyOutput(opened, { ...base, input_id: 'b', transcribed_player_answer: '  ', dialogue: 'Speak up.' }).state;
    expect(blank.dialogue.map((e) => e.role)).toEqual(['model', 'model']);
    const said = applyOutput(blank, { ...base, input_id: 'c', transcribed_player_answer: 'yes', dialogue: 'Good.' }).state;
    expect(said.dialogue.map((e) => `${e.role}:${e.text}`)).toEqual(['model:Hello.', 'model:Speak up.', 'player:yes', 'model:Good.']);
  });

  it('a complete moment leads to a v4 next moment; an empty or malformed next id is the end of the game', () => {
    const next = '3f2a9c1e-7b4d-4e8a-9c2f-1a2b3c4d5e6f';
    expect(applyOutput(flow(), { ...base, complete_the_moment: true, next_moment_id: next }).state).toMatchObject({ outcome: 'moment_complete', nextMomentId: next });
    expect(applyOutput(flow(), { ...base, complete_the_moment: true, next_moment_id: '' }).state.outcome).toBe('end_of_game');
    expect(applyOutput(flow(), { ...base, complete_the_moment: true, next_moment_id: 'moment-7' }).state.outcome).toBe('end_of_game');
  });
});

describe('client moment flow: moving on', () => {
  const other = '5b1d8f3e-2c4a-4d6b-8e9f-0a1b2c3d4e5f';
  it('adopts the first output of the next moment once the current one is complete, or when waiting for one', () => {
    const done = applyOutput(flow(), { ...base, complete_the_moment: true, next_moment_id: other }).state;
    const next = applyOutput(done, { ...base, input_id: 'n', player_moment_id: other, is_starting_dialogue: true, dialogue: 'Next.' });
    expect(next).toMatchObject({ applied: true, state: { playerMomentId: other, outcome: 'playing' } });
    expect(next.state.dialogue.map((e) => e.text)).toEqual(['Next.']);
    const waiting = applyOutput(initialMomentFlow(base.player_story_id, null), base);
    expect(waiting).toMatchObject({ applied: true, state: { playerMomentId: base.player_moment_id } });
  });

  it('ignores a late output of another moment while this one is played, and outputs of another run', () => {
    const playing = applyOutput(flow(), base).state;
    expect(applyOutput(playing, { ...base, input_id: 'late', player_moment_id: other })).toMatchObject({ applied: false, reason: 'other_moment' });
    expect(applyOutput(playing, { ...base, input_id: 'x', player_story_id: other })).toMatchObject({ applied: false, reason: 'other_moment' });
  });
});
