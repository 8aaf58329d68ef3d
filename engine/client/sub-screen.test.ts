import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MOMENT_TYPES } from '../schema/enums.js';
import { SUB_SCREEN_TEXT, type SubScreenInput, chooseSubScreen } from './sub-screen.js';

const base: SubScreenInput = {
  momentStarted: true,
  gameLost: false,
  view: { moment_type: 'Learn', loop_status: 'loopStatusOnGoing' },
  momentComplete: false,
  dialogueAudioQueued: false,
  hasGameViewResult: false,
};

describe('sub-screen', () => {
  it('shows start until the moment has started, whatever else holds', () => {
    expect(chooseSubScreen({ ...base, momentStarted: false, gameLost: true, momentComplete: true })).toBe('start');
  });

  it('shows game_lost when the game is flagged lost', () => {
    expect(chooseSubScreen({ ...base, gameLost: true })).toBe('game_lost');
    expect(chooseSubScreen({ ...base, gameLost: true, view: { moment_type: 'Epilogue' }, momentComplete: true })).toBe('game_lost');
  });

  it('shows game_won after the Epilogue is complete, or when the run is stored as won', () => {
    expect(chooseSubScreen({ ...base, view: { moment_type: 'Epilogue' }, momentComplete: true })).toBe('game_won');
    expect(chooseSubScreen({ ...base, view: { moment_type: 'Epilogue' }, momentComplete: false })).toBe('in_game');
    expect(chooseSubScreen({ ...base, view: { moment_type: 'Battle', loop_status: 'loopStatusWon' } })).toBe('game_won');
  });

  it('shows end_of_moment only when complete, no dialogue audio is queued and no result is present', () => {
    expect(chooseSubScreen({ ...base, momentComplete: true })).toBe('end_of_moment');
    expect(chooseSubScreen({ ...base, momentComplete: true, dialogueAudioQueued: true })).toBe('in_game');
    expect(chooseSubScreen({ ...base, momentComplete: true, hasGameViewResult: true })).toBe('in_game');
  });

  it('shows in_game otherwise, also before the view has loaded', () => {
    expect(chooseSubScreen(base)).toBe('in_game');
    expect(chooseSubScreen({ ...base, view: null })).toBe('in_game');
  });

  it('has the spec texts', () => {
    expect(SUB_SCREEN_TEXT).toMatchObject({ momentComplete: 'MOMENT COMPLETE', startNextMoment: 'Start next moment', lost: 'YOU LOOSE', won: 'YOU WON', restart: 'Restart' });
  });

  it('property: the table is checked in order (earlier rows win)', () => {
    const input = fc.record({
      momentStarted: fc.boolean(),
      gameLost: fc.boolean(),
      view: fc.option(fc.record({ moment_type: fc.constantFrom(...MOMENT_TYPES), loop_status: fc.constantFrom('loopStatusOnGoing', 'loopStatusWon', 'loopStatusLost') }), { nil: null }),
      momentComplete: fc.boolean(),
      dialogueAudioQueued: fc.boolean(),
      hasGameViewResult: fc.boolean(),
    });
    fc.assert(fc.property(input, (i) => {
      const screen = chooseSubScreen(i);
      if (!i.momentStarted) expect(screen).toBe('start');
      else if (i.gameLost) expect(screen).toBe('game_lost');
      if (screen === 'end_of_moment') expect(i.momentComplete && !i.dialogueAudioQueued && !i.hasGameViewResult).toBe(true);
      if (screen === 'game_won') expect(i.view).not.toBeNull();
    }));
  });
});
