// Number words to digits, in English and French: "twenty-one" -> 21, "vingt et un" -> 21, "quatre-vingt-dix" -> 90,
// "one hundred and five" -> 105, "deux mille" -> 2000, ordinals "first"/"premiere" -> 1. Works on stemmed tokens
// (number words are protected from stemming) and never joins across a clause boundary.
import { type Lang } from './lexicon.js';

type Kind = 'unit' | 'teen' | 'tens' | 'hundred' | 'thousand';
interface NumberWord { readonly kind: Kind; readonly value: number; readonly ordinal: boolean }

function lexicon(
  entries: readonly (readonly [Kind, number, string])[],
  ordinals: readonly (readonly [number, string])[],
): Map<string, NumberWord> {
  const map = new Map<string, NumberWord>();
  for (const [kind, value, words] of entries) {
    for (const w of words.split(' ')) map.set(w, { kind, value, ordinal: false });
  }
  for (const [value, words] of ordinals) {
    for (const w of words.split(' ')) map.set(w, { kind: value >= 10 ? 'teen' : 'unit', value, ordinal: true });
  }
  return map;
}

const EN = lexicon([
  ['unit', 0, 'zero'], ['unit', 1, 'one'], ['unit', 2, 'two'], ['unit', 3, 'three'], ['unit', 4, 'four'],
  ['unit', 5, 'five'], ['unit', 6, 'six'], ['unit', 7, 'seven'], ['unit', 8, 'eight'], ['unit', 9, 'nine'],
  ['teen', 10, 'ten'], ['teen', 11, 'eleven'], ['teen', 12, 'twelve'], ['teen', 13, 'thirteen'],
  ['teen', 14, 'fourteen'], ['teen', 15, 'fifteen'], ['teen', 16, 'sixteen'], ['teen', 17, 'seventeen'],
  ['teen', 18, 'eighteen'], ['teen', 19, 'nineteen'], ['tens', 20, 'twenty'], ['tens', 30, 'thirty'],
  ['tens', 40, 'forty fourty'], ['tens', 50, 'fifty'], ['tens', 60, 'sixty'], ['tens', 70, 'seventy'],
  ['tens', 80, 'eighty'], ['tens', 90, 'ninety'], ['hundred', 100, 'hundred hundreds'],
  ['thousand', 1000, 'thousand thousands'],
], [
  [1, 'first'], [2, 'second'], [3, 'third'], [4, 'fourth'], [5, 'fifth'], [6, 'sixth'], [7, 'seventh'],
  [8, 'eighth'], [9, 'ninth'], [10, 'tenth'], [11, 'eleventh'], [12, 'twelfth'],
]);

// `un`/`une` are articles as often as numbers: they count only inside a compound ("vingt et un") or at the end of a
// clause ("je parie une"); see `clauseFinalOne`.
const FR = lexicon([
  ['unit', 0, 'zero'], ['unit', 1, 'un une'], ['unit', 2, 'deux'], ['unit', 3, 'trois'], ['unit', 4, 'quatre'],
  ['unit', 5, 'cinq'], ['unit', 6, 'six'], ['unit', 7, 'sept'], ['unit', 8, 'huit'], ['unit', 9, 'neuf'],
  ['teen', 10, 'dix'], ['teen', 11, 'onze'], ['teen', 12, 'douze'], ['teen', 13, 'treize'], ['teen', 14, 'quatorze'],
  ['teen', 15, 'quinze'], ['teen', 16, 'seize'], ['tens', 20, 'vingt vingts'], ['tens', 30, 'trente'],
  ['tens', 40, 'quarante'], ['tens', 50, 'cinquante'], ['tens', 60, 'soixante'], ['tens', 70, 'septante'],
  ['tens', 80, 'octante huitante'], ['tens', 90, 'nonante'], ['hundred', 100, 'cent cents'],
  ['thousand', 1000, 'mille milles'],
], [
  [1, 'premier premiere premiers premieres'], [2, 'deuxieme second seconde'], [3, 'troisieme'], [4, 'quatrieme'],
  [5, 'cinquieme'], [6, 'sixieme'], [7, 'septieme'], [8, 'huitieme'], [9, 'neuvieme'], [10, 'dixieme'],
]);

const LEXICON: Readonly<Record<Lang, ReadonlyMap<string, NumberWord>>> = { en: EN, fr: FR };

/** Every word the number parser reads; the stemmer leaves them alone. */
export const NUMBER_WORDS: ReadonlySet<string> = new Set([...EN.keys(), ...FR.keys()]);

export interface ClauseToken { text: string; clause: number }

type Stage = 'start' | 'unit' | 'teen' | 'tens' | 'dix' | 'hundred' | 'thousand' | 'closed';

/** The token at `j` if it is still in `clause`. */
function inClause(tokens: readonly ClauseToken[], j: number, clause: number): ClauseToken | undefined {
  const t = tokens[j];
  return t !== undefined && t.clause === clause ? t : undefined;
}

function kindAt(
  tokens: readonly ClauseToken[],
  j: number,
  clause: number,
  lex: ReadonlyMap<string, NumberWord>,
): Kind | undefined {
  const t = inClause(tokens, j, clause);
  return t === undefined ? undefined : lex.get(t.text)?.kind;
}

/** Parses the number starting at `start`; returns its value and the index after its last word, or null. */
function parseAt(tokens: readonly ClauseToken[], start: number, lang: Lang): { value: number; end: number } | null {
  const lex = LEXICON[lang];
  const first = tokens[start];
  if (first === undefined) return null;
  const clause = first.clause;
  if (!lex.has(first.text) && !(lang === 'en' && first.text === 'a')) return null;
  let j = start;
  let total = 0;
  let cur = 0;
  let stage: Stage = 'start';
  let end = start;
  const second = kindAt(tokens, start + 1, clause, lex);
  if (lang === 'en' && first.text === 'a' && (second === 'hundred' || second === 'thousand')) {
    cur = 1;
    stage = 'unit';
    j += 1;
  } else if (lang === 'fr' && (first.text === 'un' || first.text === 'une')) {
    return null;
  }
  for (;;) {
    const tok = inClause(tokens, j, clause);
    if (tok === undefined) break;
    const word = lex.get(tok.text);
    if (word === undefined) {
      const next = kindAt(tokens, j + 1, clause, lex);
      // "one hundred and five", "two thousand and twenty"
      const enAnd = lang === 'en' && tok.text === 'and' && (stage === 'hundred' || stage === 'thousand')
        && (next === 'unit' || next === 'teen' || next === 'tens');
      // "vingt et un", "soixante et onze"
      const nextText = inClause(tokens, j + 1, clause)?.text;
      const frEt = lang === 'fr' && tok.text === 'et' && stage === 'tens'
        && (nextText === 'un' || nextText === 'une' || (nextText === 'onze' && cur % 100 === 60));
      if (enAnd || frEt) {
        j += 1;
        continue;
      }
      break;
    }
    const v = word.value;
    const head = stage === 'start' || stage === 'hundred' || stage === 'thousand';
    let next: Stage | null = null;
    switch (word.kind) {
      case 'unit':
        if (head) { cur += v; next = 'unit'; }
        else if (stage === 'tens' && v >= 1) { cur += v; next = 'closed'; }
        else if (stage === 'dix' && v >= 7) { cur += v; next = 'closed'; }
        break;
      case 'teen':
        if (head) { cur += v; next = lang === 'fr' && v === 10 ? 'dix' : 'teen'; }
        else if (lang === 'fr' && stage === 'tens' && (cur % 100 === 60 || cur % 100 === 80)) {
          cur += v;
          next = v === 10 ? 'dix' : 'closed';
        }
        break;
      case 'tens':
        if (head) { cur += v; next = 'tens'; }
        else if (lang === 'fr' && v === 20 && stage === 'unit' && cur % 100 === 4) { cur += 76; next = 'tens'; }
        break;
      case 'hundred':
        if (stage === 'start' || stage === 'thousand') { cur += 100; next = 'hundred'; }
        else if ((stage === 'unit' || (lang === 'en' && stage === 'teen')) && cur > 0 && cur < 100) {
          cur *= 100;
          next = 'hundred';
        }
        break;
      case 'thousand':
        if (total === 0 && stage !== 'thousand') { total = (cur === 0 ? 1 : cur) * 1000; cur = 0; next = 'thousand'; }
        break;
      default: {
        const never: never = word.kind;
        return never;
      }
    }
    if (next === null) break;
    stage = next;
    j += 1;
    end = j;
    if (word.ordinal) break;
  }
  return end === start ? null : { value: total + cur, end };
}

/**
 * Replaces every run of number words by its digits. French `un`/`une` alone become 1 only at the end of a clause
 * ("je parie une", "un, deux, trois") since elsewhere they are articles ("une porte").
 */
export function numbersToDigits(tokens: readonly ClauseToken[], lang: Lang): ClauseToken[] {
  const out: ClauseToken[] = [];
  let i = 0;
  while (i < tokens.length) {
    const tok = tokens[i];
    if (tok === undefined) break;
    const parsed = parseAt(tokens, i, lang);
    if (parsed !== null) {
      out.push({ text: String(parsed.value), clause: tok.clause });
      i = parsed.end;
      continue;
    }
    if (lang === 'fr' && (tok.text === 'un' || tok.text === 'une') && tokens[i + 1]?.clause !== tok.clause) {
      out.push({ text: '1', clause: tok.clause });
    } else {
      out.push(tok);
    }
    i += 1;
  }
  return out;
}
