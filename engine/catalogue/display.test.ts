import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_INTERACTIONS, RUN_LENGTH_TEXT, durationText, hasCards, parseRatingKey, ratingLabel, ratingPercent,
  recommendedText, remainingFraction, remainingInteractions, shortId, ticketBadge, usedFraction,
} from './display.js';

describe('rating percent', () => {
  it('is positive / (positive + negative) × 100', () => {
    expect(ratingPercent(3, 1)).toBe(75);
    expect(ratingPercent(1, 2)).toBeCloseTo(33.333, 2);
    expect(recommendedText(1, 2)).toBe('33% Recommended');
    expect(recommendedText(2, 1)).toBe('67% Recommended');
  });

  it('is 0 when either count is missing or the sum is 0', () => {
    expect(ratingPercent(null, 4)).toBe(0);
    expect(ratingPercent(4, undefined)).toBe(0);
    expect(ratingPercent(0, 0)).toBe(0);
    expect(ratingPercent(5, 0)).toBe(100);
  });

  it('says nothing (not "0% Recommended") until the story has a rating', () => {
    expect(recommendedText(0, 0)).toBeNull();
    expect(recommendedText(null, undefined)).toBeNull();
    expect(recommendedText(0, 3)).toBe('0% Recommended');
    expect(recommendedText(5, 0)).toBe('100% Recommended');
  });

  it('property: always within [0, 100]', () => {
    const count = fc.option(fc.oneof(fc.integer(), fc.double()), { nil: null });
    fc.assert(fc.property(count, count, (p, n) => {
      const v = ratingPercent(p, n);
      expect(v >= 0 && v <= 100).toBe(true);
    }));
  });
});

describe('duration text', () => {
  it("reads 'nHm' or 'nH' from 60 minutes, else 'n minutes'", () => {
    expect(durationText(15)).toBe('15 minutes');
    expect(durationText(59)).toBe('59 minutes');
    expect(durationText(60)).toBe('1H');
    expect(durationText(90)).toBe('1H30m');
    expect(durationText(125)).toBe('2H5m');
    expect(durationText(180)).toBe('3H');
    expect(durationText(null)).toBe('0 minutes');
    expect(RUN_LENGTH_TEXT).toEqual({ modal: '15 min per run', tile: '15 minutes per run' });
  });

  it('property: hours and minutes add back up', () => {
    fc.assert(fc.property(fc.integer({ min: 60, max: 100_000 }), (m) => {
      const match = /^(\d+)H(?:(\d+)m)?$/.exec(durationText(m));
      expect(match).not.toBeNull();
      expect(Number(match?.[1]) * 60 + Number(match?.[2] ?? 0)).toBe(m);
    }));
  });
});

describe('ticket badge', () => {
  it("shows the count up to 9, then '9+'", () => {
    expect(ticketBadge(0)).toBeNull();
    expect(ticketBadge(1)).toBe('1');
    expect(ticketBadge(9)).toBe('9');
    expect(ticketBadge(10)).toBe('9+');
    expect(ticketBadge(250)).toBe('9+');
  });
});

describe('rating label', () => {
  it('maps every rating key to its label', () => {
    expect(ratingLabel('ESRB_10')).toBe('Everyone 10+');
    expect(ratingLabel('ESRB_ADULT')).toBe('Adult Only 18+');
    expect(ratingLabel('ESRB_EVERYONE')).toBe('Everyone');
    expect(ratingLabel('ESRB_MATURE')).toBe('Mature 17+');
    expect(ratingLabel('ESRB_PENDING')).toBe('Rating Pending');
    expect(ratingLabel('ESRB_Teen')).toBe('Teen');
  });

  it("matches keys regardless of case, and reads an unknown one as 'Rating Pending'", () => {
    expect(parseRatingKey('esrb_teen')).toBe('ESRB_Teen');
    expect(ratingLabel('ESRB_TEEN')).toBe('Teen');
    expect(ratingLabel('PEGI_12')).toBe('Rating Pending');
    expect(ratingLabel(null)).toBe('Rating Pending');
  });
});

describe('has cards', () => {
  it('needs a character with character_id and character_name, or an item with available_item_id', () => {
    expect(hasCards({ enrolled_characters: [{ character_id: 'c', character_name: 'Ada' }], player_items: [] })).toBe(true);
    expect(hasCards({ enrolled_characters: [{ character_id: 'c', character_name: '' }], player_items: [] })).toBe(false);
    expect(hasCards({ enrolled_characters: [{ character_id: null, character_name: 'Ada' }] })).toBe(false);
    expect(hasCards({ enrolled_characters: [], player_items: [{ available_item_id: 'i' }] })).toBe(true);
    expect(hasCards({ enrolled_characters: null, player_items: [{ available_item_id: null }] })).toBe(false);
    expect(hasCards(null)).toBe(false);
  });
});

describe('remaining interactions', () => {
  it('is max(0, max − current), 30 when the maximum is missing', () => {
    expect(remainingInteractions(30, 12)).toBe(18);
    expect(remainingInteractions(30, 31)).toBe(0);
    expect(remainingInteractions(null, 10)).toBe(20);
    expect(DEFAULT_MAX_INTERACTIONS).toBe(30);
    expect(remainingFraction(30, 12)).toBeCloseTo(0.6);
    expect(usedFraction(30, 12)).toBeCloseTo(0.4);
  });

  it('property: never negative, and the ring fraction stays within [0, 1]', () => {
    const max = fc.option(fc.integer({ min: -5, max: 200 }), { nil: null });
    fc.assert(fc.property(max, fc.integer({ min: -50, max: 500 }), (m, c) => {
      expect(remainingInteractions(m, c)).toBeGreaterThanOrEqual(0);
      const f = remainingFraction(m, c);
      expect(f >= 0 && f <= 1).toBe(true);
      const u = usedFraction(m, c);
      expect(u >= 0 && u <= 1).toBe(true);
    }));
  });
});

describe('short id', () => {
  it('shows a character id as its first 4 characters', () => {
    expect(shortId('a1b2c3d4')).toBe('a1b2');
  });
});
