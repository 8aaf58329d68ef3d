// Rank letters and their stored numbers (game spec §4 "End conditions and ranks"): S=1, A=2, B=3, C=4, D=5, E=6, F=7.

export const RANK_LETTERS = ['S', 'A', 'B', 'C', 'D', 'E', 'F'] as const;
export type RankLetter = (typeof RANK_LETTERS)[number];

export const BEST_RANK = 1;
export const WORST_RANK = 7;
/** The rank shown when none is known yet ('Beat rank F'). */
export const DEFAULT_RANK_LETTER: RankLetter = 'F';
/** Rank A, whose first achievement in a story earns a golden ticket. */
export const GOLDEN_TICKET_RANK = 2;

export function isRankLetter(value: string): value is RankLetter {
  return (RANK_LETTERS as readonly string[]).includes(value);
}

/** Trims and upper-cases; S to F map to 1 to 7, anything else is F (7). */
export function rankToNumber(letter: string): number {
  const clean = letter.trim().toUpperCase();
  return isRankLetter(clean) ? RANK_LETTERS.indexOf(clean) + 1 : WORST_RANK;
}

/** 1 to 7 map to S to F; anything else (a missing, fractional or out-of-range rank) reads as F. */
export function rankToLetter(n: number): RankLetter {
  return Number.isInteger(n) ? (RANK_LETTERS[n - 1] ?? DEFAULT_RANK_LETTER) : DEFAULT_RANK_LETTER;
}

/** The letter of a stored rank that may be missing. */
export function rankLetterOrDefault(n: number | null | undefined): RankLetter {
  return n === null || n === undefined ? DEFAULT_RANK_LETTER : rankToLetter(n);
}
