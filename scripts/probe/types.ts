// What every probe reports: per attack, how many times it was tried, how many the server refused as it should, and
// how many held (the attack worked). A probe that could not tell (an answer neither way) counts the try in neither.
import type { Target } from './target.js';

export type Row = { item: number; attack: string; tries: number; refused: number; held: number; figures?: Record<string, number | string> };

export type ProbeContext = {
  target: Target;
  /** How many times to try each repeatable attack. */
  tries: number;
  /** Starts another server from the same checkout, with more environment (a probe that needs another setting). */
  startOther: (env: Record<string, string>) => Promise<Target>;
};

export type Probe = { group: string; items: number[]; run: (ctx: ProbeContext) => Promise<Row[]> };

/** A row from a list of outcomes: true held, false refused, null neither. */
export function tally(item: number, attack: string, outcomes: (boolean | null)[], figures?: Row['figures']): Row {
  return {
    item, attack, tries: outcomes.length, refused: outcomes.filter((o) => o === false).length, held: outcomes.filter((o) => o === true).length,
    ...(figures ? { figures } : {}),
  };
}
