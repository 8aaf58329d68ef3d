// When a second try with another front end is decoded, and when what it heard is taken (retry.ts).
import { describe, expect, it } from 'vitest';
import type { ModelView } from './policy.js';
import { DEFAULT_RETRY_FRONTS, FRAME_RATE_RETRY, retryHolds, retryMay } from './retry.js';

const VIEWS: readonly (ModelView | null)[] = ['same', 'none', 'elsewhere', 'talk', 'partial', 'other', 'unknown', null];

describe('retry.ts', () => {
  it('hears a miss again only where the first try heard a story sentence the model did not hear otherwise', () => {
    expect(VIEWS.filter((v) => retryMay(v))).toEqual(['same', 'none', 'elsewhere']);
  });

  it('takes the second try only when both its decoders agree on one of the story\'s own sentences', () => {
    for (const first of VIEWS) {
      for (const again of VIEWS) {
        for (const authored of [true, false]) {
          expect(retryHolds({ first: { view: first }, again: { view: again, authored } })).toBe(retryMay(first) && again === 'same' && authored);
        }
      }
    }
  });

  it('hears a miss once by default; the measured second try is at 150 frames a second', () => {
    expect(DEFAULT_RETRY_FRONTS).toEqual([]);
    expect(FRAME_RATE_RETRY).toEqual(['-frate', '150']);
  });
});
