// Ranks (game spec §4): S=1 ... F=7, and the rank formula for a finished run.
//
// The spec leaves how a rank is earned to the server. Looptale's formula (documented in the README):
//   points = 60 x remaining/max                    (interactions left: efficiency)
//          + 5 x perfect answers, at most 20        (quality of answers)
//          + 10 x battles won without a burn-out, at most 20
//   won run: S >= 85, A >= 65, B >= 50, C >= 35, D >= 20, else E (a story may set its own thresholds);
//   lost run (cap reached, dead end, manual end, every fighter burned out): F.
// Every term is non-decreasing in better play, so better play never ranks worse.
import { RANK_LETTERS, rankLetterOrDefault, rankToLetter, rankToNumber } from '../catalogue/rank-letter.js';

export { RANK_LETTERS, rankLetterOrDefault, rankToLetter, rankToNumber };
export const RANK_F = 7;
export const RANK_A = 2;

export type RankThresholds = { S: number; A: number; B: number; C: number; D: number };
export const DEFAULT_RANK_THRESHOLDS: RankThresholds = { S: 85, A: 65, B: 50, C: 35, D: 20 };

export type RunPerformance = {
  won: boolean;
  remaining: number;
  max: number;
  perfectAnswers: number;
  cleanBattlesWon: number;
};

export function rankPoints(p: RunPerformance): number {
  const efficiency = p.max > 0 ? (60 * Math.max(0, Math.min(p.remaining, p.max))) / p.max : 0;
  const answers = Math.min(20, 5 * Math.max(0, p.perfectAnswers));
  const battles = Math.min(20, 10 * Math.max(0, p.cleanBattlesWon));
  return Math.round((efficiency + answers + battles) * 100) / 100;
}

/** The rank number (1..7) of a finished run. */
export function rankForRun(p: RunPerformance, thresholds: RankThresholds = DEFAULT_RANK_THRESHOLDS): number {
  if (!p.won) return RANK_F;
  const pts = rankPoints(p);
  if (pts >= thresholds.S) return 1;
  if (pts >= thresholds.A) return 2;
  if (pts >= thresholds.B) return 3;
  if (pts >= thresholds.C) return 4;
  if (pts >= thresholds.D) return 5;
  return 6;
}
