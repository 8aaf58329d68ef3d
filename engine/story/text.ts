import { z } from 'zod';
import { LANG_CODE, type PlayLanguage } from '../schema/enums.js';

/** Longest authored text per language (a line, a riddle, a description); the catalogue's description is shorter. */
export const MAX_TEXT_CHARS = 4000;
export const MAX_CATALOGUE_DESCRIPTION_CHARS = 1000;

/** Authored text in both play languages, at most `max` characters each. */
export const textOf = (max: number) => z.object({ en: z.string().min(1).max(max), fr: z.string().min(1).max(max).optional() }).strict();

/** Authored text in both play languages. French may be missing in a draft; `story validate` reports it. */
export const Text = textOf(MAX_TEXT_CHARS);
export type Text = z.infer<typeof Text>;

/** The text in the run's language, falling back to English when a translation is missing. */
export function localize(text: Text, language: PlayLanguage): string {
  return LANG_CODE[language] === 'fr' ? (text.fr ?? text.en) : text.en;
}
