// A player's progress in one story, for the personal catalogue's Continue row and the profile page.
// The spec's Continue row fills its bar with a random value (accounts spec §2, a bug we note and do not copy): ours
// is real progress, the share of the story's moments the player has reached in any run since the last reset.
import { LOOP_STATUS } from '../schema/enum-values.js';
import { rankToLetter } from './rank-letter.js';

/** The parts of a saved game state this reads (engine/run/state.ts GameState). */
export interface ProgressSource {
  readonly run: { readonly id: string; readonly loop_status: string; readonly loop_rank: number | null; readonly is_successful_run: boolean } | null;
  readonly history: { readonly runs: number; readonly best_rank: number | null; readonly successful: number };
  readonly moments: readonly { readonly blueprint_moment_id: string }[];
  readonly completion_counts: Readonly<Record<string, number>>;
}

export interface StoryProgress {
  readonly blueprint_story_id: string;
  /** Runs played, the latest included. */
  readonly runs: number;
  /** Best (lowest) rank as a letter, null before any ranked run. */
  readonly best_rank: string | null;
  /** Runs won (is_successful_run). */
  readonly successful_runs: number;
  /** Distinct moments of the story reached in any run since the last progress reset (the latest run's included). */
  readonly moments_reached: number;
  readonly moments_total: number;
  /** moments_reached / moments_total, 0..1 (0 for a story without moments). */
  readonly fraction: number;
  /** The run 'continue' opens, when the latest one is still being played. */
  readonly ongoing_player_story_id: string | null;
}

export function storyProgress(storyId: string, s: ProgressSource, storyMomentIds: readonly string[]): StoryProgress {
  const known = new Set(storyMomentIds);
  const reached = new Set<string>();
  for (const [id, n] of Object.entries(s.completion_counts)) if (n > 0 && known.has(id)) reached.add(id);
  for (const m of s.moments) if (known.has(m.blueprint_moment_id)) reached.add(m.blueprint_moment_id);
  const latestRank = s.run?.loop_rank ?? null;
  const best = latestRank === null ? s.history.best_rank : s.history.best_rank === null ? latestRank : Math.min(latestRank, s.history.best_rank);
  const total = known.size;
  const successfulLatest = s.run?.is_successful_run ? 1 : 0;
  return {
    blueprint_story_id: storyId,
    runs: s.history.runs + (s.run ? 1 : 0),
    best_rank: best === null ? null : rankToLetter(best),
    successful_runs: s.history.successful + successfulLatest,
    moments_reached: reached.size,
    moments_total: total,
    fraction: total === 0 ? 0 : reached.size / total,
    ongoing_player_story_id: s.run && s.run.loop_status === LOOP_STATUS.ongoing ? s.run.id : null,
  };
}

/** 'Run 3 · 5 of 12 moments reached', the Continue row's caption. */
export function progressCaption(p: Pick<StoryProgress, 'runs' | 'moments_reached' | 'moments_total'>): string {
  const runs = p.runs === 1 ? '1 run' : `${p.runs} runs`;
  return `${runs} · ${p.moments_reached} of ${p.moments_total} moments reached`;
}
