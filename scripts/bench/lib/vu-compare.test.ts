// Comparing two voice-understanding runs: time and run fields never count as a difference, a changed figure or record
// does, records are matched by what was tried whatever order they finished in, and missing ones are counted.
import { describe, expect, it } from 'vitest';
import { compareDumps, figureDifferences } from './vu-compare.js';

const rec = (o: Record<string, unknown>): Record<string, unknown> => ({ set: 'tuning', kind: 'sentence', story: 's', stage: 'Fog', voice: 'f4', text: 'hello', outcome: 'right', heard: 'hello', ms: 10, ...o });
const jsonl = (rs: Record<string, unknown>[]): string => rs.map((r) => JSON.stringify(r)).join('\n') + '\n';

describe('voice-understanding run comparison', () => {
  it('leaves out time and run fields but finds a changed figure by its path', () => {
    const a = { started_at: 'x', total_s: 1, code: { commit: 'a' }, tuning: { all: { sentences: { right: 5 } }, understand_ms: { p50: 3 } } };
    const same = { started_at: 'y', total_s: 9, code: { commit: 'b' }, tuning: { understand_ms: { p50: 7 }, all: { sentences: { right: 5 } } } };
    expect(figureDifferences(a, same)).toEqual([]);
    expect(figureDifferences(a, { ...same, tuning: { all: { sentences: { right: 4 } } } })).toEqual(['tuning.all.sentences.right']);
  });

  it('matches records by what was tried, ignores ms and order, and reports the fields that differ', () => {
    const before = jsonl([rec({}), rec({ voice: 'm3', ms: 5 })]);
    expect(compareDumps(before, jsonl([rec({ voice: 'm3', ms: 99 }), rec({ ms: 1 })]))).toMatchObject({ records: [2, 2], identical: 2, differ: 0, only_before: 0, only_after: 0 });
    const changed = compareDumps(before, jsonl([rec({ voice: 'm3' }), rec({ outcome: 'not_caught', heard: null })]));
    expect(changed).toMatchObject({ identical: 1, differ: 1 });
    expect(changed.examples[0]?.fields).toEqual({ outcome: ['right', 'not_caught'], heard: ['hello', null] });
    expect(compareDumps(before, jsonl([rec({})]))).toMatchObject({ identical: 1, only_before: 1, only_after: 0 });
    expect(compareDumps(jsonl([rec({})]), before)).toMatchObject({ identical: 1, only_before: 0, only_after: 1 });
  });
});
