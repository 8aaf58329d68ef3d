import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SCORES, fuzzyScore, maxEdits, osaDistance, phoneticKey, tokenSimilarity } from './fuzzy.js';

describe('osaDistance', () => {
  it('counts insertions, deletions, substitutions and adjacent swaps', () => {
    expect(osaDistance('lantern', 'lantern')).toBe(0);
    expect(osaDistance('lanturn', 'lantern')).toBe(1);
    expect(osaDistance('dragon', 'dargon')).toBe(1);
    expect(osaDistance('sword', 'swords')).toBe(1);
    expect(osaDistance('kitten', 'sitting')).toBe(3);
    expect(osaDistance('', 'abc')).toBe(3);
    // Optimal string alignment, not full Damerau: no edit of a swapped pair.
    expect(osaDistance('ca', 'abc')).toBe(3);
  });

  it('stops early past the bound', () => {
    expect(osaDistance('abcdefgh', 'zzzzzzzz', 2)).toBe(3);
    expect(osaDistance('a', 'abcdef', 1)).toBe(2);
  });

  const short = fc.string({ maxLength: 10 });

  it('is a symmetric metric-like distance, and bounded results agree with unbounded ones', () => {
    fc.assert(fc.property(short, short, fc.nat({ max: 4 }), (a, b, max) => {
      const d = osaDistance(a, b);
      expect(osaDistance(b, a)).toBe(d);
      expect(d === 0).toBe(a === b);
      expect(d).toBeLessThanOrEqual(Math.max(a.length, b.length));
      expect(osaDistance(a, b, max)).toBe(d <= max ? d : max + 1);
    }), { numRuns: 2000 });
  });
});

describe('fuzzyScore', () => {
  it('tolerates edits by length: none up to 3 letters, one up to 6, two beyond', () => {
    expect([3, 4, 6, 7, 12].map(maxEdits)).toEqual([0, 1, 1, 2, 2]);
    expect(fuzzyScore('lanturn', 'lantern')).toBe(SCORES.fuzzy1);
    expect(fuzzyScore('lanturne', 'lantern')).toBe(SCORES.fuzzy2);
    expect(fuzzyScore('cat', 'car')).toBe(0);
    expect(fuzzyScore('drgon', 'dragon')).toBe(SCORES.fuzzy1);
    expect(fuzzyScore('dragon', 'wagon')).toBe(0);
  });

  it('matches numbers only exactly', () => {
    expect(fuzzyScore('1000', '1001')).toBe(0);
    expect(fuzzyScore('21', '21')).toBe(SCORES.exact);
  });
});

describe('phoneticKey', () => {
  it('hears English spellings of one sound alike', () => {
    expect(phoneticKey('nite', 'en')).toBe(phoneticKey('knight', 'en'));
    expect(phoneticKey('read', 'en')).toBe(phoneticKey('red', 'en'));
    expect(phoneticKey('rite', 'en')).toBe(phoneticKey('wright', 'en'));
    expect(phoneticKey('fone', 'en')).toBe(phoneticKey('phone', 'en'));
    expect(phoneticKey('door', 'en')).not.toBe(phoneticKey('dare', 'en'));
  });

  it('hears French spellings of one sound alike', () => {
    expect(phoneticKey('beau', 'fr')).toBe(phoneticKey('bo', 'fr'));
    expect(phoneticKey('foret', 'fr')).toBe(phoneticKey('forais', 'fr'));
    expect(phoneticKey('chato', 'fr')).toBe(phoneticKey('chateau', 'fr'));
    expect(phoneticKey('poisson', 'fr')).not.toBe(phoneticKey('poison', 'fr'));
    expect(phoneticKey('fantome', 'fr')).toBe(phoneticKey('phantome', 'fr'));
  });

  it('keys non-letter tokens as themselves', () => {
    expect(phoneticKey('21', 'en')).toBe('21');
  });
});

describe('tokenSimilarity', () => {
  it('prefers exact, then fuzzy, then phonetic', () => {
    expect(tokenSimilarity('door', 'door', 'en')).toBe(SCORES.exact);
    expect(tokenSimilarity('lanturn', 'lantern', 'en')).toBe(SCORES.fuzzy1);
    expect(tokenSimilarity('nite', 'knight', 'en')).toBe(SCORES.phonetic);
    expect(tokenSimilarity('banana', 'knight', 'en')).toBe(0);
  });
});
