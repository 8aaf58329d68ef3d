// The simulate-compare bench's records: equal values read the same whatever their key order, a difference is found
// at its line and character, and the records of a checkout are the same on every run and change with what is played.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalJson, firstDifference, fixtureStory, loadSimCode, sha256, simRecords } from './sim-records.js';

const ROOT = resolve(import.meta.dirname, '../../..');

describe('simulate-compare records', () => {
  it('writes objects with sorted keys, at every depth, and keeps arrays in order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 0 }], c: null } })).toBe('{"a":{"c":null,"d":[2,{"y":0,"z":1}]},"b":1}');
    expect(canonicalJson({ x: 1, y: 2 })).toBe(canonicalJson({ y: 2, x: 1 }));
    expect(canonicalJson([3, 1])).not.toBe(canonicalJson([1, 3]));
  });

  it('finds the first differing line and cuts both around the first differing character', () => {
    expect(firstDifference(['a', 'b'], ['a', 'b'])).toBeNull();
    expect(firstDifference(['a', 'b'], ['a', 'c'])).toEqual({ line: 1, a: 'b', b: 'c' });
    expect(firstDifference(['a'], ['a', 'extra'])).toEqual({ line: 1, a: null, b: 'extra' });
    const long = 'x'.repeat(500);
    const d = firstDifference([`${long}1${long}`], [`${long}2${long}`], 20);
    expect(d).toEqual({ line: 0, a: `${'x'.repeat(10)}1${'x'.repeat(9)}`, b: `${'x'.repeat(10)}2${'x'.repeat(9)}` });
  });

  it('records the same lines for the same seed, and others for another seed or bot', async () => {
    const code = await loadSimCode(ROOT);
    const story = fixtureStory(code, 'lantern-keeper');
    const opts = { runs: 5, transcriptRuns: 2, seed: 7 };
    const c = { story: 'lantern-keeper', bot: 'random' as const, language: 'english' as const };
    const a = simRecords(code, story, c, opts);
    const b = simRecords(code, story, c, opts);
    expect(a.runs).toHaveLength(6);
    expect(a.transcripts.length).toBeGreaterThan(4);
    expect(sha256(a.runs)).toBe(sha256(b.runs));
    expect(sha256(a.transcripts)).toBe(sha256(b.transcripts));
    const otherSeed = simRecords(code, story, c, { ...opts, seed: 8 });
    expect(firstDifference(a.runs, otherSeed.runs)).not.toBeNull();
    expect(firstDifference(a.transcripts, otherSeed.transcripts)).not.toBeNull();
    const otherBot = simRecords(code, story, { ...c, bot: 'optimal' }, opts);
    expect(firstDifference(a.transcripts, otherBot.transcripts)).not.toBeNull();
  });
});
