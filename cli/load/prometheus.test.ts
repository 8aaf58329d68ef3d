import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findSample, formatSample, parsePrometheus, type Sample } from './prometheus.js';

describe('parsePrometheus', () => {
  it('skips HELP, TYPE, other comments and blank lines; reads samples with and without labels', () => {
    const r = parsePrometheus([
      '# HELP looptale_turns_total Turns answered since start.',
      '# TYPE looptale_turns_total counter',
      'looptale_turns_total 3',
      '',
      '   # a comment',
      'looptale_turn_stage_seconds{stage="brain",quantile="0.99"} 0.012500',
      'nodejs_eventloop_delay_seconds_max 0.020',
      'http_requests_total{method="post",code="200",} 1027 1395066363000',
      'weird{ a = "x" , b="y"}\t-Inf',
      'x:y{} NaN\r',
      '',
    ].join('\n'));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.samples.slice(0, 5)).toEqual([
      { name: 'looptale_turns_total', labels: {}, value: 3 },
      { name: 'looptale_turn_stage_seconds', labels: { stage: 'brain', quantile: '0.99' }, value: 0.0125 },
      { name: 'nodejs_eventloop_delay_seconds_max', labels: {}, value: 0.02 },
      { name: 'http_requests_total', labels: { method: 'post', code: '200' }, value: 1027, timestamp: 1395066363000 },
      { name: 'weird', labels: { a: 'x', b: 'y' }, value: -Infinity },
    ]);
    expect(r.samples[5]?.name).toBe('x:y');
    expect(r.samples[5]?.value).toBeNaN();
  });

  it('unescapes backslashes, quotes and newlines in label values', () => {
    const r = parsePrometheus('m{path="C:\\\\dir\\\\",msg="say \\"hi\\"\\nbye",brace="}{,="} 1.5e3\n');
    expect(r).toEqual({ ok: true, samples: [{ name: 'm', labels: { path: 'C:\\dir\\', msg: 'say "hi"\nbye', brace: '}{,=' }, value: 1500 }] });
  });

  it('keeps label names that are also Object.prototype names as plain labels', () => {
    const r = parsePrometheus('m{__proto__="x",constructor="y"} 1\n');
    if (!r.ok) throw new Error(r.error);
    expect(Object.getPrototypeOf(r.samples[0]?.labels)).toBe(Object.prototype);
    expect(Object.entries(r.samples[0]?.labels ?? {})).toEqual([['__proto__', 'x'], ['constructor', 'y']]);
    expect(findSample(r.samples, 'm', { ['__proto__']: 'x' })?.value).toBe(1);
  });

  it('rejects what is not the text format, naming the line', () => {
    for (const [text, error] of [
      ['<!doctype html>\n<html></html>', /line 1: expected a metric name/],
      ['{"ok":true}', /line 1/],
      ['ok 1\nnot-found 1', /line 2: expected "\{" or a blank/], ['ok 1\nNot Found', /line 2: bad value "Found"/],
      ['m{a="x"', /line 1/],
      ['m{a="x} 1', /unterminated label value/],
      ['m{a="\\t"} 1', /bad escape/],
      ['m{a="1",a="2"} 1', /repeated/],
      ['m', /expected a value/],
      ['m one', /bad value "one"/],
      ['m 1 2 3', /at most a timestamp/],
      ['m 1 1.5', /bad timestamp/],
      ['m{1a="x"} 1', /label name/],
    ] as const) {
      const r = parsePrometheus(text);
      expect(r.ok, text).toBe(false);
      if (!r.ok) expect(r.error, text).toMatch(error);
    }
  });

  it('finds a sample by name and a subset of its labels', () => {
    const r = parsePrometheus('s{stage="a",quantile="0.5"} 1\ns{stage="b",quantile="0.5"} 2\ns_count{stage="b"} 7\n');
    if (!r.ok) throw new Error(r.error);
    expect(findSample(r.samples, 's', { stage: 'b' })?.value).toBe(2);
    expect(findSample(r.samples, 's_count', { stage: 'b' })?.value).toBe(7);
    expect(findSample(r.samples, 's', { stage: 'c' })).toBeUndefined();
    expect(findSample(r.samples, 's', { constructor: 'x' })).toBeUndefined();
  });
});

const metricName = fc.stringMatching(/^[a-zA-Z_:][a-zA-Z0-9_:]{0,20}$/);
const labelName = fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,12}$/);
const labelValue = fc.oneof(fc.string({ unit: 'grapheme' }), fc.string({ unit: fc.constantFrom('\\', '"', '\n', '{', '}', ',', '=', ' ', 'a', '#') }));
const sample: fc.Arbitrary<Sample> = fc.record({
  name: metricName,
  labels: fc.uniqueArray(fc.tuple(labelName, labelValue), { selector: ([k]) => k, maxLength: 5 }).map((l) => Object.fromEntries(l)),
  value: fc.double(),
  timestamp: fc.option(fc.integer({ min: -(2 ** 40), max: 2 ** 40 }), { nil: undefined }),
}).map(({ timestamp, ...s }) => (timestamp === undefined ? s : { ...s, timestamp }));

describe('formatSample then parsePrometheus', () => {
  it('round-trips arbitrary samples, with comments in between (property)', () => {
    fc.assert(fc.property(fc.array(sample, { maxLength: 10 }), fc.boolean(), (samples, comments) => {
      const text = samples.map((s) => `${comments ? `# HELP ${s.name} some help\n# TYPE ${s.name} gauge\n` : ''}${formatSample(s)}\n`).join('');
      const r = parsePrometheus(text);
      if (!r.ok) throw new Error(`${r.error} in ${JSON.stringify(text)}`);
      // toEqual tells NaN from NaN as equal and -0 from 0 apart, as the format does.
      expect(r.samples).toEqual(samples);
      for (const [i, s] of samples.entries()) expect(Object.is(r.samples[i]?.value, s.value)).toBe(true);
    }), { numRuns: 300 });
  });
});
