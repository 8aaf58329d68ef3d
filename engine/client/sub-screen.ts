// Which of the five sub-screens the game screen shows (game spec §2's table), checked in the table's order.
import { LOOP_STATUS, type MomentType } from '../schema/enums.js';

export const SUB_SCREENS = ['start', 'game_lost', 'game_won', 'end_of_moment', 'in_game'] as const;
export type SubScreen = (typeof SUB_SCREENS)[number];

/** The moment type that ends a story. */
export const STORY_END_MOMENT_TYPE = 'Epilogue' satisfies MomentType;

/** Texts of the sub-screens (game spec §2); 'YOU LOOSE' is spelt as the spec has it. */
export const SUB_SCREEN_TEXT = {
  momentComplete: 'MOMENT COMPLETE',
  startNextMoment: 'Start next moment',
  lost: 'YOU LOOSE',
  won: 'YOU WON',
  restart: 'Restart',
  start: 'Start',
} as const;

export interface SubScreenInput {
  readonly momentStarted: boolean;
  /** The game is flagged lost (end_of_game, the interaction cap, or End Current Run). */
  readonly gameLost: boolean;
  /** The first game view; null before it has loaded. */
  readonly view: {
    readonly moment_type: MomentType;
    readonly loop_status?: string | null;
  } | null;
  readonly momentComplete: boolean;
  /** Dialogue audio still queued or playing: the end-of-moment screen waits until the last line is heard. */
  readonly dialogueAudioQueued: boolean;
  /** A result (award, forging, upgrade) still to show over the in-game screen. */
  readonly hasGameViewResult: boolean;
}

// "The final type" of the table has no moment type of its own in this game (the types are those of MOMENT_TYPES):
// we read it as the run having been stored as won, and the story-end type as the Epilogue. So the player sees
// YOU WON after the Epilogue is complete, never while it is still being told.
export function isGameWon(input: SubScreenInput): boolean {
  const view = input.view;
  if (view === null) return false;
  if (view.loop_status === LOOP_STATUS.won) return true;
  return view.moment_type === STORY_END_MOMENT_TYPE && input.momentComplete;
}

export function chooseSubScreen(input: SubScreenInput): SubScreen {
  if (!input.momentStarted) return 'start';
  if (input.gameLost) return 'game_lost';
  if (isGameWon(input)) return 'game_won';
  if (input.momentComplete && !input.dialogueAudioQueued && !input.hasGameViewResult) return 'end_of_moment';
  return 'in_game';
}
