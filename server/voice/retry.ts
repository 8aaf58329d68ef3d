// A miss heard again with another front end (understanding.ts `understand`, when `retryFronts` names any): which front
// ends, and when what the second try heard is taken.
//
// The acoustic model fits some speech badly at its own 100 frames a second: its phones have three states of at least
// one frame each, so a phone said in under 30 ms cannot be matched, and fast or clipped speech fits silence or a
// decoy instead. At 150 frames a second the same audio has phones of 20 ms at least. Heard that way, a miss the first
// try half-heard often comes out as the story sentence both decoders agree on. But a second try is a second chance
// for small talk too: taken whenever it heard an answer, it took 76 more non-answers of 3,284 on the tuning half
// (session 16, the notes of #13). So the second try only confirms what the first half-heard (`retryHolds`).
//
// Off by default, measured (session 16, cached decodes, the voice-understanding bench): with `retryHolds`, story
// sentences 212 -> 216 of 232 (tuning) and 212 -> 213 (held-out), paraphrases 128 -> 132 of 540 and 432 -> 442 of
// 1,240 (wrong unchanged), non-answers taken 51 -> 54 and 73 -> 74 of 3,284, people's recordings unchanged. But a miss
// the first try half-heard costs a second cascade at 1.5 times the frames: on the voice bench's latency clips (14 of
// 40 turns a miss) the 1 talker's first reply audio went from p50 271-283 to 327-380 ms and p95 292-333 to 586-608 ms
// (decoders' CPU 432-445 -> 694-701 ms a turn). Too little gained for what every such miss costs; UnderstandingOptions
// `retryFronts: [FRAME_RATE_RETRY]` turns it on.
import type { ModelView } from './policy.js';

/** The second try that was measured: 150 frames a second. A warp of the frequencies (-warp_params 1.15, a shorter
 *  vocal tract) was measured too and dropped: as a second try it heard no story sentence the frame rate did not. */
export const FRAME_RATE_RETRY: readonly string[] = ['-frate', '150'];

/** Front ends a miss is heard again with by default, in order (decoder flags added to every decode of that try). */
export const DEFAULT_RETRY_FRONTS: readonly (readonly string[])[] = [];

/** What the first try heard (its miss) and what the second heard (an answer it would take alone). */
export type Tries = {
  first: { view: ModelView | null };
  again: { view: ModelView | null; authored: boolean };
};

/**
 * The second try's answer is taken only when it confirms what the first half-heard: both of its decoders heard the
 * same decision, in one of the story's own sentences (never a generated one: a name or an item they dispute), and at
 * the first try the exact grammar heard a decision the model did not hear otherwise: the model agreed (too weakly), or
 * heard words none of which decide anything and none of its own (`elsewhere`), or nothing (`none`). Where the model
 * heard talk of its own, another decision or part of one, or the grammar heard no decision at all (a decoy, nothing:
 * no view), the first miss stands. Chosen on the tuning half (session 16): of the rules tried, the one that took
 * the fewest more non-answers per story sentence gained.
 */
export function retryHolds(t: Tries): boolean {
  return retryMay(t.first.view) && t.again.view === 'same' && t.again.authored;
}

/** Whether a second try can change a first miss at all (else it is not decoded: a miss costs one try). */
export function retryMay(firstView: ModelView | null): boolean {
  return firstView === 'same' || firstView === 'elsewhere' || firstView === 'none';
}
