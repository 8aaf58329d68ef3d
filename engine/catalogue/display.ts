// Display rules of the catalogue, the top bar and the game menu (accounts spec §2, §5; game spec §2, §4, §5).
import { RATING_LABELS } from '../schema/enum-values.js';
import type { RatingKey } from '../schema/enums.js';

/** Default maximum interactions per run when the story gives none. */
export const DEFAULT_MAX_INTERACTIONS = 30;
/** Above this many available tickets the badge reads '9+'. */
export const TICKET_BADGE_CAP = 9;
export const MINUTES_PER_HOUR = 60;
/** Run length texts: the detail modal says '15 min per run', catalogue tiles '15 minutes per run'. */
export const RUN_LENGTH_TEXT = { modal: '15 min per run', tile: '15 minutes per run' } as const;

/** A count as stored: it may be missing, and we do not trust it to be a sane number. */
type Count = number | null | undefined;

function usableCount(n: Count): n is number {
  return typeof n === 'number' && Number.isFinite(n) && n >= 0;
}

/**
 * positive / (positive + negative) × 100, and 0 if either count is missing or the sum is 0. A negative or
 * non-finite count is treated as missing, which keeps the result in [0, 100].
 */
export function ratingPercent(positive: Count, negative: Count): number {
  if (!usableCount(positive) || !usableCount(negative)) return 0;
  const sum = positive + negative;
  return sum === 0 ? 0 : (positive / sum) * 100;
}

/**
 * '{n}% Recommended', the percent rounded to a whole number; null while the story has no ratings (a missing or zero
 * sum), where a '0%' would read as every player disliking it.
 */
export function recommendedText(positive: Count, negative: Count): string | null {
  if (!usableCount(positive) || !usableCount(negative) || positive + negative === 0) return null;
  return `${Math.round(ratingPercent(positive, negative))}% Recommended`;
}

/**
 * 'nHm' ('1H30m') or 'nH' ('2H') from 60 minutes up, else 'n minutes' (the spec's text, also for 1). Minutes are
 * rounded to whole minutes and a negative or missing duration reads as 0 minutes.
 */
export function durationText(minutes: number | null | undefined): string {
  const total = typeof minutes === 'number' && Number.isFinite(minutes) ? Math.max(0, Math.round(minutes)) : 0;
  if (total < MINUTES_PER_HOUR) return `${total} minutes`;
  const hours = Math.floor(total / MINUTES_PER_HOUR);
  const rest = total % MINUTES_PER_HOUR;
  return rest === 0 ? `${hours}H` : `${hours}H${rest}m`;
}

/** The ticket icon's badge: none for no ticket, the count up to 9, then '9+'. */
export function ticketBadge(available: number): string | null {
  if (!(available > 0)) return null;
  return available > TICKET_BADGE_CAP ? `${TICKET_BADGE_CAP}+` : String(Math.floor(available));
}

const RATING_KEYS_BY_UPPER = new Map<string, RatingKey>(
  (Object.keys(RATING_LABELS) as RatingKey[]).map((key) => [key.toUpperCase(), key]),
);

/** The rating key of a stored value, matched without regard to case ('ESRB_TEEN' is 'ESRB_Teen'); null if unknown. */
export function parseRatingKey(value: string | null | undefined): RatingKey | null {
  return RATING_KEYS_BY_UPPER.get((value ?? '').trim().toUpperCase()) ?? null;
}

// An unknown or missing rating shows as 'Rating Pending' rather than a raw key: it is what the player is owed.
export function ratingLabel(value: string | null | undefined): string {
  const key = parseRatingKey(value);
  return key === null ? RATING_LABELS.ESRB_PENDING : RATING_LABELS[key];
}

/** The parts of a game view the 'has cards' rule reads; rows from the store may hold nulls. */
export interface CardsSource {
  readonly enrolled_characters?: readonly {
    readonly character_id?: string | null;
    readonly character_name?: string | null;
  }[] | null;
  readonly player_items?: readonly { readonly available_item_id?: string | null }[] | null;
}

/** At least one character with character_id and character_name, or one item with available_item_id. */
export function hasCards(view: CardsSource | null | undefined): boolean {
  if (!view) return false;
  const character = (view.enrolled_characters ?? []).some((c) => Boolean(c.character_id) && Boolean(c.character_name));
  return character || (view.player_items ?? []).some((i) => Boolean(i.available_item_id));
}

function maxOrDefault(max: number | null | undefined): number {
  return typeof max === 'number' && Number.isFinite(max) && max > 0 ? max : DEFAULT_MAX_INTERACTIONS;
}

/** max(0, max − current); a missing maximum is the default 30. */
export function remainingInteractions(max: number | null | undefined, current: number): number {
  const used = Number.isFinite(current) ? current : 0;
  return Math.max(0, maxOrDefault(max) - used);
}

/** The menu ring: remaining divided by maximum, kept in [0, 1]. */
export function remainingFraction(max: number | null | undefined, current: number): number {
  return Math.min(1, remainingInteractions(max, current) / maxOrDefault(max));
}

/** The share of the run used (count / max), kept in [0, 1]. */
export function usedFraction(max: number | null | undefined, current: number): number {
  const used = Number.isFinite(current) ? Math.max(0, current) : 0;
  return Math.min(1, used / maxOrDefault(max));
}

/** A character id as the story graph shows it: its first 4 characters. */
export function shortId(id: string): string {
  return id.slice(0, 4);
}
