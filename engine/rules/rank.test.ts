import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RANK_THRESHOLDS, rankForRun, rankLetterOrDefault, rankPoints, rankToLetter, rankToNumber } from './rank.js';
import { remainingInteractions } from '../catalogue/display.js';

describe('rank mapping (game spec §4)', () => {
  it('maps S=1, A=2, B=3, C=4, D=5, E=6, F=7; trims and upper-cases; anything else is F', () => {
    expect(['S', 'A', 'B', 'C', 'D', 'E', 'F'].map(rankToNumber)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(rankToNumber('  a ')).toBe(2);
    expect(rankToNumber('s')).toBe(1);
    expect(rankToNumber('Z')).toBe(7);
    expect(rankToNumber('')).toBe(7);
    expect(rankToLetter(2)).toBe('A');
    expect(rankLetterOrDefault(null)).toBe('F');
  });

  it('round-trips every rank, and any string parses to 1..7', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 7 }), (n) => rankToNumber(rankToLetter(n)) === n));
    fc.assert(fc.property(fc.string(), (s) => {
      const n = rankToNumber(s);
      return n >= 1 && n <= 7 && rankToNumber(rankToLetter(n)) === n;
    }));
  });

  it('remaining interactions = max(0, max - current)', () => {
    expect(remainingInteractions(30, 10)).toBe(20);
    expect(remainingInteractions(30, 35)).toBe(0);
    fc.assert(fc.property(fc.nat(100), fc.integer({ min: 1, max: 100 }), (c, m) => remainingInteractions(m, c) >= 0));
  });
});

describe('rank formula', () => {
  it('ranks a lost run F and a won run by points', () => {
    expect(rankForRun({ won: false, remaining: 30, max: 30, perfectAnswers: 9, cleanBattlesWon: 9 })).toBe(7);
    expect(rankForRun({ won: true, remaining: 30, max: 30, perfectAnswers: 4, cleanBattlesWon: 2 })).toBe(1);
    // 60 x 12/30 = 24, + 10 + 10 = 44 -> C
    expect(rankPoints({ won: true, remaining: 12, max: 30, perfectAnswers: 2, cleanBattlesWon: 1 })).toBe(44);
    expect(rankForRun({ won: true, remaining: 12, max: 30, perfectAnswers: 2, cleanBattlesWon: 1 })).toBe(4);
    expect(rankForRun({ won: true, remaining: 0, max: 30, perfectAnswers: 0, cleanBattlesWon: 0 })).toBe(6);
    expect(DEFAULT_RANK_THRESHOLDS).toEqual({ S: 85, A: 65, B: 50, C: 35, D: 20 });
  });

  it('better play never ranks worse', () => {
    const perf = fc.record({
      won: fc.boolean(), remaining: fc.nat(40), max: fc.integer({ min: 1, max: 40 }), perfectAnswers: fc.nat(10), cleanBattlesWon: fc.nat(5),
    });
    fc.assert(fc.property(perf, fc.nat(5), fc.nat(3), fc.nat(3), fc.boolean(), (p, dr, dp, db, winNow) => {
      const better = { ...p, won: p.won || winNow, remaining: Math.min(p.max, p.remaining + dr), perfectAnswers: p.perfectAnswers + dp, cleanBattlesWon: p.cleanBattlesWon + db };
      return rankForRun(better) <= rankForRun({ ...p, remaining: Math.min(p.max, p.remaining) });
    }));
  });
});
