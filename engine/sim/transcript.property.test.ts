// The canonical JSON and the state digest are written out by hand for speed: they must give exactly the text and
// the digest of their plain definitions (JSON.stringify with sorted keys; two FNV-1a hashes), on any JSON value.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashSeed } from '../random.js';
import { canonicalJson, stateDigest } from './transcript.js';
import type { GameState } from '../run/state.js';

function reference(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const o = v as Record<string, unknown>;
    return Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));
  });
}

const value = fc.letrec((tie) => ({
  any: fc.oneof({ depthSize: 'small' },
    fc.constant(null), fc.boolean(), fc.double(), fc.integer(), fc.string(), fc.constant(undefined),
    fc.array(tie('any'), { maxLength: 5 }), fc.dictionary(fc.string({ maxLength: 6 }), tie('any'), { maxKeys: 5 })),
})).any;

describe('canonical JSON and state digest', () => {
  it('equal JSON.stringify with sorted keys, for any value', () => {
    fc.assert(fc.property(fc.oneof(fc.array(value), fc.dictionary(fc.string(), value)), (v) => {
      expect(canonicalJson(v)).toBe(reference(v));
    }), { numRuns: 500 });
  });

  it('digest = the two salted FNV hashes of the canonical text', () => {
    fc.assert(fc.property(fc.dictionary(fc.string(), value), (v) => {
      const json = reference(v);
      const want = `${hashSeed(json).toString(16).padStart(8, '0')}${hashSeed(json, 0x9e3779b9).toString(16).padStart(8, '0')}`;
      expect(stateDigest(v as unknown as GameState)).toBe(want);
    }), { numRuns: 300 });
  });
});
