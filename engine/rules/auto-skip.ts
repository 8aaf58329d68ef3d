// Auto-skip (game spec §4): before a moment starts it is skipped when one of five conditions holds.
import type { BlueprintMoment } from '../story/format.js';
import { traitsOf } from '../moments/registry.js';
import { teamSizeOf } from '../moments/fields.js';

export const AUTO_SKIP_DEDUPE_MS = 5000;
export const AUTO_SKIP_MAX_CHAIN = 5;
export const AUTO_SKIP_CACHE_SIZE = 100;

export type SkipContext = {
  runNumber: number;
  completionCount: number;
  /** A draw in [0, 100). */
  draw: number;
  /** Characters the player could select (owned and not burned out). */
  availableCharacters: number;
};

const enabled = (n: number | undefined): n is number => n !== undefined && n !== -1;

/**
 * The reason a moment is skipped, or null to play it. The reasons become the '[Skipped: reason]' dialogue.
 * Assemble: the spec says "fewer selected characters than required", but the selection is reset to none when an
 * Assemble starts, so read literally every Assemble would be skipped. We skip when fewer characters are AVAILABLE
 * than required (no valid team can be formed), which is what the rule is for.
 */
export function skipReason(m: BlueprintMoment, c: SkipContext): string | null {
  if (enabled(m.skip_after_run_number) && c.runNumber > m.skip_after_run_number) {
    return `run ${c.runNumber} is after run ${m.skip_after_run_number}`;
  }
  if (enabled(m.show_after_run_number) && c.runNumber < m.show_after_run_number) {
    return `run ${c.runNumber} is before run ${m.show_after_run_number}`;
  }
  if (m.skip_after_completion_count !== undefined && m.skip_after_completion_count > 0 && c.completionCount >= m.skip_after_completion_count) {
    return `completed ${c.completionCount} times`;
  }
  if (m.display_randomly_probability !== undefined && m.display_randomly_probability !== -1 && c.draw > m.display_randomly_probability) {
    return 'not drawn this time';
  }
  const required = teamSizeOf(m) ?? 0;
  if (traitsOf(m.type).picksTeam && c.availableCharacters < required) {
    return `needs ${required} characters`;
  }
  return null;
}

/** Where a skipped moment leads: skip_to_moment_id, else the first transition's next moment. */
export function skipTarget(m: BlueprintMoment): string | null {
  return m.skip_to_moment_id ?? m.transitions[0]?.next_moment_id ?? null;
}

export type SkipLogEntry = { blueprint_moment_id: string; at: number };

/** True when the same moment was auto-skipped less than 5000 ms ago: it is then played, not skipped again. */
export function recentlySkipped(log: readonly SkipLogEntry[], momentId: string, now: number): boolean {
  return log.some((e) => e.blueprint_moment_id === momentId && now - e.at < AUTO_SKIP_DEDUPE_MS);
}

/**
 * Adds an entry, keeping at most 100 (the oldest go first). Entries 5000 ms old or more are dropped first: they can no
 * longer make recentlySkipped true (time only moves on), and kept they made the state, so every turn's write, grow
 * with the runs played until the cache was full (about 8 KB; state format 3).
 */
export function rememberSkip(log: readonly SkipLogEntry[], momentId: string, now: number): SkipLogEntry[] {
  const next = [...log.filter((e) => now - e.at < AUTO_SKIP_DEDUPE_MS), { blueprint_moment_id: momentId, at: now }];
  return next.length > AUTO_SKIP_CACHE_SIZE ? next.slice(next.length - AUTO_SKIP_CACHE_SIZE) : next;
}
