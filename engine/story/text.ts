import { z } from 'zod';
import { LANG_CODE, type PlayLanguage } from '../schema/enums.js';

/** Authored text in both play languages. French may be missing in a draft; `story validate` reports it. */
export const Text = z.object({ en: z.string().min(1), fr: z.string().min(1).optional() }).strict();
export type Text = z.infer<typeof Text>;

/** The text in the run's language, falling back to English when a translation is missing. */
export function localize(text: Text, language: PlayLanguage): string {
  return LANG_CODE[language] === 'fr' ? (text.fr ?? text.en) : text.en;
}
