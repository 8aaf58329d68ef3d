// Coverage of a simulation: how often each moment was played (or skipped) and each transition taken.
import type { GameState } from '../run/state.js';
import { localize } from '../story/text.js';
import type { Story } from '../story/format.js';

export type Coverage = {
  moments: { id: string; name: string; type: string; played: number; skipped: number }[];
  transitions: { from: string; to: string; label: string; taken: number }[];
  never_reached: string[];
  never_taken: string[];
};

export function newCoverage(story: Story): Coverage {
  return {
    moments: story.moments.map((m) => ({ id: m.id, name: localize(m.name, 'english'), type: m.type, played: 0, skipped: 0 })),
    transitions: story.moments.flatMap((m) => m.transitions.map((t) => ({
      from: m.id, to: t.next_moment_id, label: t.label ? localize(t.label, 'english') : '', taken: 0,
    }))),
    never_reached: [],
    never_taken: [],
  };
}

/** Per coverage: how many of the latest run's moments are counted. */
const seenMoments = new WeakMap<Coverage, { counted: number }>();
/** Per coverage: moment index by blueprint id, transition index by from -> to (a turn is a few lookups). */
type CoverageIndex = { moments: Map<string, Coverage['moments'][number]>; transitions: Map<string, Map<string, Coverage['transitions'][number]>> };
const indexes = new WeakMap<Coverage, CoverageIndex>();

function indexOf(cov: Coverage): CoverageIndex {
  let ix = indexes.get(cov);
  if (!ix) {
    ix = { moments: new Map(), transitions: new Map() };
    for (const m of cov.moments) if (!ix.moments.has(m.id)) ix.moments.set(m.id, m);
    for (const t of cov.transitions) {
      let from = ix.transitions.get(t.from);
      if (!from) ix.transitions.set(t.from, (from = new Map<string, Coverage['transitions'][number]>()));
      if (!from.has(t.to)) from.set(t.to, t);
    }
    indexes.set(cov, ix);
  }
  return ix;
}

/**
 * Counts player moments that appeared since the last call (new ones: played or skipped) and the transitions into them.
 * `beforeRunId`: the latest run's id before the step (null or undefined: none). A run's moments are only ever added
 * after the ones it has (a step replaces a row where it is), so the new ones are those past the count already seen.
 */
export function recordCoverage(cov: Coverage, after: GameState, beforeRunId: string | null | undefined): void {
  let seen = seenMoments.get(cov);
  if (!seen) {
    seen = { counted: 0 };
    seenMoments.set(cov, seen);
  }
  if ((beforeRunId ?? undefined) !== after.run?.id) seen.counted = 0;
  const ms = after.moments;
  if (ms.length <= seen.counted) return;
  const ix = indexOf(cov);
  for (let i = seen.counted; i < ms.length; i++) {
    const pm = ms[i] as GameState['moments'][number];
    const m = ix.moments.get(pm.blueprint_moment_id);
    if (m) {
      if (pm.skipped_reason) m.skipped++;
      else m.played++;
    }
    const prev = i > 0 ? (ms[i - 1] as GameState['moments'][number]).blueprint_moment_id : null;
    if (prev) {
      const t = ix.transitions.get(prev)?.get(pm.blueprint_moment_id);
      if (t) t.taken++;
    }
  }
  seen.counted = ms.length;
}

/** Fills in never_reached and never_taken from the counts (once, when a report is made). */
export function finishCoverage(cov: Coverage): void {
  cov.never_reached = cov.moments.filter((m) => m.played === 0 && m.skipped === 0).map((m) => m.name);
  cov.never_taken = cov.transitions.filter((t) => t.taken === 0).map((t) => `${cov.moments.find((m) => m.id === t.from)?.name ?? t.from} -> ${cov.moments.find((m) => m.id === t.to)?.name ?? t.to}`);
}
