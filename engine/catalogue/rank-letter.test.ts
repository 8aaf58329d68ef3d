import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RANK_LETTERS, rankLetterOrDefault, rankToLetter, rankToNumber } from './rank-letter.js';

describe('rank letters', () => {
  it('maps S=1, A=2, B=3, C=4, D=5, E=6, F=7', () => {
    expect(RANK_LETTERS.map(rankToNumber)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect([1, 2, 3, 4, 5, 6, 7].map(rankToLetter)).toEqual(['S', 'A', 'B', 'C', 'D', 'E', 'F']);
  });

  it('trims and upper-cases; anything else is F', () => {
    expect(rankToNumber('  a ')).toBe(2);
    expect(rankToNumber('s')).toBe(1);
    expect(rankToNumber('G')).toBe(7);
    expect(rankToNumber('')).toBe(7);
    expect(rankToNumber('AA')).toBe(7);
  });

  it('reads a number outside 1..7 (or missing) as F', () => {
    expect([0, 8, -1, 2.5, Number.NaN].map(rankToLetter)).toEqual(['F', 'F', 'F', 'F', 'F']);
    expect(rankLetterOrDefault(null)).toBe('F');
    expect(rankLetterOrDefault(undefined)).toBe('F');
    expect(rankLetterOrDefault(1)).toBe('S');
  });

  it('property: parse/format round trip for S..F, also with case and spaces', () => {
    fc.assert(fc.property(fc.constantFrom(...RANK_LETTERS), fc.boolean(), fc.nat(3), fc.nat(3), (letter, lower, l, r) => {
      const written = `${' '.repeat(l)}${lower ? letter.toLowerCase() : letter}${' '.repeat(r)}`;
      expect(rankToLetter(rankToNumber(written))).toBe(letter);
    }));
    fc.assert(fc.property(fc.integer({ min: 1, max: 7 }), (n) => { expect(rankToNumber(rankToLetter(n))).toBe(n); }));
  });

  it('property: any string parses to 1..7 and any number formats to S..F', () => {
    fc.assert(fc.property(fc.string(), (s) => {
      const n = rankToNumber(s);
      expect(Number.isInteger(n) && n >= 1 && n <= 7).toBe(true);
    }));
    fc.assert(fc.property(fc.double(), (n) => { expect(RANK_LETTERS).toContain(rankToLetter(n)); }));
  });
});
