import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkJson, hasLoneSurrogate, showJsonPath, storableText } from './json-guard.js';

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

  it('refuses NUL, which PostgreSQL text and jsonb cannot hold, in values and keys', () => {
    expect(checkJson({ a: ['ok', 'x\u0000y'] }, { maxDepth: 10 })).toEqual({
      code: 'json/nul', path: ['a', 1], message: 'contains U+0000 (NUL), which text cannot hold',
    });
    expect(checkJson({ ['\0']: 1 }, { maxDepth: 10 })).toMatchObject({ code: 'json/nul', path: ['\0'], message: /^key contains U\+0000/ });
    expect(checkJson({ a: 'other controls \u0001\u001f\u007f are text' }, { maxDepth: 10 })).toBeNull();
  });

  it('agrees with UTF-8 round trips: a string passes exactly when it survives encoding and holds no NUL', () => {
    // Any UTF-16 code units, so lone surrogates come up too (fast-check's 'binary' unit never makes one).
    const codeUnits = fc.string({ unit: fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.constantFrom(0, 0xd800, 0xdfff)).map((u) => String.fromCharCode(u)) });
    fc.assert(fc.property(codeUnits, (s) => {
      const survives = new TextDecoder().decode(new TextEncoder().encode(s)) === s && !s.includes('\0');
      expect(checkJson({ s }, { maxDepth: 4 }) === null).toBe(survives);
    }), { numRuns: 500 });
  });

  it('makes provider text storable: NUL dropped, lone surrogates as U+FFFD, anything else kept', () => {
    expect(storableText('a\u0000b\ud800c\udc00\u{1F47B}\t')).toBe('ab\ufffdc\ufffd\u{1F47B}\t');
    const codeUnits = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u)) });
    fc.assert(fc.property(codeUnits, (s) => {
      const t = storableText(s);
      expect(checkJson(t, { maxDepth: 0 })).toBeNull();
      if (checkJson(s, { maxDepth: 0 }) === null) expect(t).toBe(s);
    }), { numRuns: 500 });
  });

  it('shows short paths', () => {
    expect(showJsonPath(['data', 'a', 0, 'b'])).toBe('data.a[0].b');
    expect(showJsonPath([])).toBe('(root)');
    expect(showJsonPath(['a', 'a', 'a', 'a', 'a', 'a', 'a', 'a'])).toBe('a.a.a.a.a.a…');
  });
});
