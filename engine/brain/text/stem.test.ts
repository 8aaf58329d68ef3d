import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { STOPWORDS } from './lexicon.js';
import { NUMBER_WORDS } from './numbers.js';
import { stem } from './stem.js';

describe('stem', () => {
  it('leaves short words, number words and non-letter tokens alone', () => {
    expect(stem('red', 'en')).toBe('red');
    expect(stem('trois', 'fr')).toBe('trois');
    expect(stem('quatre', 'fr')).toBe('quatre');
    expect(stem('mp3s', 'en')).toBe('mp3s');
  });

  it('maps irregular forms', () => {
    expect(stem('took', 'en')).toBe('take');
    expect(stem('chevaux', 'fr')).toBe('cheval');
  });

  const word = fc.stringMatching(/^[a-z]{1,12}$/);

  it('is a fixed point: stemming a stem changes nothing', () => {
    fc.assert(fc.property(word, fc.constantFrom('en' as const, 'fr' as const), (w, lang) => {
      const once = stem(w, lang);
      expect(stem(once, lang)).toBe(once);
    }), { numRuns: 3000 });
  });

  it('never turns a word into a stopword or number word it was not', () => {
    fc.assert(fc.property(word, fc.constantFrom('en' as const, 'fr' as const), (w, lang) => {
      const s = stem(w, lang);
      if (s !== w) {
        expect(STOPWORDS[lang].has(s)).toBe(false);
        expect(NUMBER_WORDS.has(s)).toBe(false);
      }
    }), { numRuns: 3000 });
  });
});
