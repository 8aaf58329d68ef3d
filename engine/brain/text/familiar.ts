// Familiar English words (the New Dale-Chall list of about 3,000 words most readers know), as the matcher's stems. Two
// different familiar words are two words, not one mistyped or misheard: "think" is not "thank", and "let me think" must
// not take a reward offered with "thanks". A typo or a mishearing gives a word that is not on the list ("lanturn"),
// or a name. French has no such list here: its matching is unchanged.
import { daleChall } from 'dale-chall';
import type { Lang } from './lexicon.js';
import { stem } from './stem.js';

let familiar: ReadonlySet<string> | undefined;

/** Whether a normalised, stemmed token is a familiar word of the language (always false for French). */
export function isFamiliar(token: string, lang: Lang): boolean {
  if (lang !== 'en') return false;
  familiar ??= new Set(daleChall.flatMap((w) => [w, stem(w, 'en')]));
  return familiar.has(token);
}
