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

/** Counts player moments that appeared since `before` (new ones: played or skipped) and the transitions into them. */
export function recordCoverage(cov: Coverage, after: GameState, before: GameState | null): void {
  let seen = seenMoments.get(cov);
  if (!seen) {
    seen = new Set();
    seenMoments.set(cov, seen);
  }
  const beforeRun = before?.run?.id;
  const afterRun = after.run?.id;
  if (beforeRun !== afterRun) seen.clear();
  let prev: string | null = null;
  for (const pm of after.moments) {
    if (!seen.has(pm.id)) {
      seen.add(pm.id);
      const m = cov.moments.find((x) => x.id === pm.blueprint_moment_id);
      if (m) {
        if (pm.skipped_reason) m.skipped++;
        else m.played++;
      }
      if (prev) {
        const from = prev;
        const t = cov.transitions.find((x) => x.from === from && x.to === pm.blueprint_moment_id);
        if (t) t.taken++;
      }
    }
    prev = pm.blueprint_moment_id;
  }
  cov.never_reached = cov.moments.filter((m) => m.played === 0 && m.skipped === 0).map((m) => m.name);
  cov.never_taken = cov.transitions.filter((t) => t.taken === 0).map((t) => `${cov.moments.find((m) => m.id === t.from)?.name ?? t.from} -> ${cov.moments.find((m) => m.id === t.to)?.name ?? t.to}`);
}
