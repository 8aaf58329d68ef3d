// A miss heard again with another front end (understanding.ts #understandAgain): which front ends, and when what the
// second try heard is taken.
//
// The acoustic model fits some speech badly at its own 100 frames a second: its phones have three states of at least
// one frame each, so a phone said in under 30 ms cannot be matched, and fast or clipped speech fits silence or a
// decoy instead. At 150 frames a second the same audio has phones of 20 ms at least. Heard that way, a miss the first
// try half-heard often comes out as the story sentence both decoders agree on. But a second try is a second chance
// for small talk too: taken whenever it heard an answer, it took 76 more non-answers of 3,284 on the tuning half
// (session 16, the notes of #13). So the second try only confirms what the first half-heard (`retryHolds`).
import type { ModelView } from './policy.js';

/** Front ends a miss is heard again with, in order (decoder flags added to every decode of that try). A warp of the
 *  frequencies (-warp_params 1.15, a shorter vocal tract) was measured too and dropped: as a second try it heard no
 *  story sentence the frame rate did not, and took non-answers. */
export const DEFAULT_RETRY_FRONTS: readonly (readonly string[])[] = [['-frate', '150']];

/** What the first try heard (its miss) and what the second heard (an answer it would take alone). */
export type Tries = {
  first: { view: ModelView | null };
  again: { view: ModelView | null; authored: boolean };
};

/**
 * The second try's answer is taken only when it confirms what the first half-heard: both of its decoders heard the
 * same decision, in one of the story's own sentences (never a generated one: a name or an item they dispute), and at
 * the first try the exact grammar heard a story sentence the model did not hear otherwise: the model agreed (too
 * weakly), or heard words none of which decide anything and none of its own (`elsewhere`), or nothing (`none`). Where
 * the model heard talk of its own, another decision or part of one, or the grammar heard no sentence at all (a decoy,
 * nothing), the first miss stands. Chosen on the tuning half (session 16): of the rules tried, the one that took
 * the fewest more non-answers per story sentence gained.
 */
export function retryHolds(t: Tries): boolean {
  return retryMay(t.first.view) && t.again.view === 'same' && t.again.authored;
}

/** Whether a second try can change a first miss at all (else it is not decoded: a miss costs one try). */
export function retryMay(firstView: ModelView | null): boolean {
  return firstView === 'same' || firstView === 'elsewhere' || firstView === 'none';
}
