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

const seenMoments = new WeakMap<Coverage, Set<string>>();
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
 * `beforeRunId`: the latest run's id before the step (null or undefined: none).
 */
export function recordCoverage(cov: Coverage, after: GameState, beforeRunId: string | null | undefined): void {
  let seen = seenMoments.get(cov);
  if (!seen) {
    seen = new Set();
    seenMoments.set(cov, seen);
  }
  if ((beforeRunId ?? undefined) !== after.run?.id) seen.clear();
  // Moments are only ever added to a run: nothing new when every moment is already counted.
  const ms = after.moments;
  if (ms.length === seen.size && (ms.length === 0 || seen.has((ms[ms.length - 1] as { id: string }).id))) return;
  const ix = indexOf(cov);
  let prev: string | null = null;
  for (const pm of ms) {
    if (!seen.has(pm.id)) {
      seen.add(pm.id);
      const m = ix.moments.get(pm.blueprint_moment_id);
      if (m) {
        if (pm.skipped_reason) m.skipped++;
        else m.played++;
      }
      if (prev) {
        const t = ix.transitions.get(prev)?.get(pm.blueprint_moment_id);
        if (t) t.taken++;
      }
    }
    prev = pm.blueprint_moment_id;
  }
}

/** Fills in never_reached and never_taken from the counts (once, when a report is made). */
export function finishCoverage(cov: Coverage): void {
  cov.never_reached = cov.moments.filter((m) => m.played === 0 && m.skipped === 0).map((m) => m.name);
  cov.never_taken = cov.transitions.filter((t) => t.taken === 0).map((t) => `${cov.moments.find((m) => m.id === t.from)?.name ?? t.from} -> ${cov.moments.find((m) => m.id === t.to)?.name ?? t.to}`);
}
