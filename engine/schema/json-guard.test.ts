import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkJson, hasLoneSurrogate, showJsonPath } from './json-guard.js';

const nested = (depth: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
};

describe('json guard', () => {
  it('finds unpaired surrogates anywhere, keys included, and accepts proper pairs', () => {
    expect(hasLoneSurrogate('\ud800')).toBe(true);
    expect(hasLoneSurrogate('a\udc00')).toBe(true);
    expect(hasLoneSurrogate('\udfff\ud800')).toBe(true);
    expect(hasLoneSurrogate('ghost \u{1F47B}')).toBe(false);
    expect(checkJson({ a: [1, { b: 'x\ud800' }] }, { maxDepth: 10 })).toMatchObject({ code: 'json/lone_surrogate', path: ['a', 1, 'b'] });
    expect(checkJson({ ['k\udc00']: 1 }, { maxDepth: 10 })).toMatchObject({ code: 'json/lone_surrogate', path: ['k\udc00'] });
    expect(checkJson({ a: 'fine \u{1F600}' }, { maxDepth: 10 })).toBeNull();
  });

  it('counts depth from 1 for an object and never overflows the stack', () => {
    expect(checkJson(nested(8), { maxDepth: 8 })).toBeNull();
    expect(checkJson(nested(9), { maxDepth: 8 })).toMatchObject({ code: 'json/too_deep' });
    expect(checkJson(nested(200_000), { maxDepth: 32 })).toMatchObject({ code: 'json/too_deep' });
    expect(checkJson('x', { maxDepth: 0 })).toBeNull();
  });

  it('caps values and keys', () => {
    expect(checkJson(Array.from({ length: 11 }, () => 0), { maxDepth: 2, maxValues: 11 })).toMatchObject({ code: 'json/too_many_values' });
    expect(checkJson(Object.fromEntries(Array.from({ length: 5 }, (_, i) => [i, i])), { maxDepth: 2, maxKeys: 4 })).toMatchObject({ code: 'json/too_many_keys' });
  });

  it('agrees with UTF-8 round trips: a string passes exactly when it survives encoding', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => {
      const survives = new TextDecoder().decode(new TextEncoder().encode(s)) === s;
      expect(checkJson({ s }, { maxDepth: 4 }) === null).toBe(survives);
    }), { numRuns: 500 });
  });

  it('shows short paths', () => {
    expect(showJsonPath(['data', 'a', 0, 'b'])).toBe('data.a[0].b');
    expect(showJsonPath([])).toBe('(root)');
    expect(showJsonPath(['a', 'a', 'a', 'a', 'a', 'a', 'a', 'a'])).toBe('a.a.a.a.a.a…');
  });
});
