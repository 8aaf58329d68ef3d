// A light, conservative suffix stripper. It only has to map the forms a player says and the forms an author writes to
// the same token ("doors"/"door", "attacked"/"attack", "attaquez"/"attaquer"/"attaque"); fuzzy matching covers the
// rest. It is not a linguistic stemmer: stems may not be words ("porte" -> "port"), and that is fine because both sides
// go through it.
//
// English (words of 4+ letters): -ies/-ied -> y; -sses/-xes/-ches/-shes/-zzes -> drop "es"; -ing/-ed -> drop, then
// undouble a final consonant ("running" -> "run") or restore a silent e on a consonant-vowel-consonant base
// ("making" -> "make"); -s -> drop, except after s, u, i ("glass", "bonus", "this"); "-eed" words are kept ("need").
// French (words of 4+ letters): -ent (stem of 4+), -ez, -er, -es, -e, -s, -x.
// Rules repeat until none applies, so a stem is a fixed point (normalisation is idempotent). A rule never produces a
// protected word (stopword, negator, number word), so "passe" does not become the negator "pas".
import { IRREGULAR, type Lang, STOPWORDS } from './lexicon.js';
import { NUMBER_WORDS } from './numbers.js';

const LETTERS = /^[a-z]+$/;
const HAS_VOWEL = /[aeiouy]/;
const EN_ES = /(?:ss|x|ch|sh|zz)es$/;
const EN_KEEP_S = /(?:ss|us|is)$/;
const VOWELS = 'aeiou';

const PROTECTED: Readonly<Record<Lang, ReadonlySet<string>>> = {
  en: new Set([...STOPWORDS.en, ...NUMBER_WORDS, ...IRREGULAR.en.keys()]),
  fr: new Set([...STOPWORDS.fr, ...NUMBER_WORDS, ...IRREGULAR.fr.keys()]),
};

const isConsonant = (c: string | undefined): boolean => c !== undefined && !VOWELS.includes(c);

/** Drops an -ing/-ed ending of `k` letters, undoubling or restoring a silent e as needed. */
function dropVerbEnding(word: string, k: number): string {
  const base = word.slice(0, -k);
  if (!HAS_VOWEL.test(base)) return word; // "thing", "bring", "shed"
  const last = base[base.length - 1];
  if (base.length >= 4 && last === base[base.length - 2] && isConsonant(last) && !'lsfz'.includes(last ?? '')) {
    return base.slice(0, -1); // "running" -> "run", "stopped" -> "stop"
  }
  const cvc = isConsonant(base[0]) && !isConsonant(base[1]) && isConsonant(last) && !'wxy'.includes(last ?? '');
  if (base.length === 3 && cvc) {
    return `${base}e`; // "making" -> "make", "named" -> "name"
  }
  if (base.length >= 3) return base;
  if (k === 2) return word.slice(0, -1); // "used" -> "use", "died" -> "die"
  return isConsonant(last) ? `${base}e` : base; // "using" -> "use", "doing" -> "do"
}

function stripEn(w: string): string {
  const n = w.length;
  if (n >= 5 && (w.endsWith('ies') || w.endsWith('ied'))) return `${w.slice(0, -3)}y`;
  if (EN_ES.test(w)) return w.slice(0, -2);
  if (w.endsWith('ing')) return dropVerbEnding(w, 3);
  if (w.endsWith('ed') && !w.endsWith('eed')) return dropVerbEnding(w, 2);
  if (w.endsWith('s') && !EN_KEEP_S.test(w)) return w.slice(0, -1);
  return w;
}

function stripFr(w: string): string {
  if (w.endsWith('ent') && w.length >= 7) return w.slice(0, -3);
  if (w.endsWith('ez') || w.endsWith('er') || w.endsWith('es')) return w.slice(0, -2);
  if (w.endsWith('e') || w.endsWith('s') || w.endsWith('x')) return w.slice(0, -1);
  return w;
}

/** The stem of one normalised word (lower case, no accents). Non-letter tokens and short words are returned as is. */
export function stem(word: string, lang: Lang): string {
  const irregular = IRREGULAR[lang];
  const protectedWords = PROTECTED[lang];
  let w = word;
  for (;;) {
    const mapped = irregular.get(w);
    if (mapped !== undefined) {
      w = mapped;
      continue;
    }
    if (w.length <= 3 || protectedWords.has(w) || !LETTERS.test(w)) return w;
    const next = lang === 'en' ? stripEn(w) : stripFr(w);
    if (next === w || next.length < 3 || protectedWords.has(next)) return w;
    w = next;
  }
}
