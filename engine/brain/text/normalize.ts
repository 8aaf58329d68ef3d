// Text -> tokens, the same way for what the player said and for what the author wrote: lower case, accents and
// punctuation removed, French elisions and English contractions expanded, light stemming, number words as digits.
// `analyze` also keeps what punctuation and little words tell about clauses, to scope negations.
import {
  CLAUSE_BREAKERS, EN_CONTRACTIONS, EN_IS_BEFORE_S, EN_SUFFIXES, FR_ELISIONS, FR_NE_PARTNERS, type Lang, NEGATORS,
} from './lexicon.js';
import { type ClauseToken, numbersToDigits } from './numbers.js';
import { stem } from './stem.js';

export { type Lang } from './lexicon.js';

/** A normalised token, its clause (punctuation and words like "but"/"mais" start a new one) and whether a negation
 * earlier in the clause covers it. */
export interface Token {
  readonly text: string;
  readonly clause: number;
  readonly negated: boolean;
}

const APOSTROPHES = /[\u2018\u2019\u201b\u02bc\u0060\u00b4\u2032]/g;
const MARKS = /\p{M}+/gu;
const ASCII = /^[\x20-\x7e]*$/;
const ASCII_APOSTROPHES = /`/g;
const SPECIAL = /[œæßøłđıĳ]/g;
const SPECIAL_MAP: Readonly<Record<string, string>> = {
  'œ': 'oe', 'æ': 'ae', 'ß': 'ss', 'ø': 'o', 'ł': 'l', 'đ': 'd', 'ı': 'i', 'ĳ': 'ij',
};
const EN_DIGIT_COMMA = /(\d),(?=\d{3}(?!\d))/g;
/** A word (letters/digits, inner apostrophes kept) or a punctuation mark that ends a clause. */
const PIECES = /([\p{L}\p{N}]+(?:'[\p{L}\p{N}]+)*)|([.,;:!?…()[\]{}"«»¿¡\u2013\u2014\u201c\u201d])/gu;
const DIGITS = /^[0-9]+$/;
const ORDINAL_DIGITS = /^([0-9]+)(?:st|nd|rd|th|er|re|ere|e|eme|ieme|nde?)$/;
const LEADING_ZEROS = /^0+(?=[0-9])/;

/** Lower case, compatibility-decomposed, without combining marks; apostrophe variants become "'". */
function fold(text: string): string {
  if (ASCII.test(text)) return text.toLowerCase().replace(ASCII_APOSTROPHES, "'");
  // Apostrophes are folded before decomposing ("´" decomposes to a space and a mark) and after ("ŉ" gives "ʼn").
  return text
    .toLowerCase()
    .replace(APOSTROPHES, "'")
    .normalize('NFKD')
    .replace(MARKS, '')
    .toLowerCase()
    .replace(APOSTROPHES, "'")
    .replace(SPECIAL, (ch) => SPECIAL_MAP[ch] ?? ch);
}

/** Collects tokens and their clauses; a clause breaker word starts a new clause. */
class TokenSink {
  readonly tokens: ClauseToken[] = [];
  clause = 0;
  private readonly breakers: ReadonlySet<string>;

  constructor(private readonly lang: Lang) {
    this.breakers = CLAUSE_BREAKERS[lang];
  }

  push(word: string): void {
    if (word.length === 0) return;
    const token = wordToken(word, this.lang);
    if (this.breakers.has(token)) this.clause += 1;
    this.tokens.push({ text: token, clause: this.clause });
  }
}

/** Splits one word that may hold apostrophes into plain words (elisions, contractions, possessives). */
function expand(piece: string, lang: Lang, sink: TokenSink): void {
  if (lang === 'fr' && !piece.includes("'")) {
    sink.push(FR_ELISIONS.get(piece) ?? piece);
    return;
  }
  if (lang === 'fr') {
    for (const part of piece.split("'")) sink.push(FR_ELISIONS.get(part) ?? part);
    return;
  }
  const whole = EN_CONTRACTIONS.get(piece);
  if (whole !== undefined) {
    for (const w of whole) sink.push(w);
    return;
  }
  if (!piece.includes("'")) {
    sink.push(piece);
    return;
  }
  const parts = piece.split("'");
  const [word, suffix] = parts;
  if (parts.length !== 2 || word === undefined || suffix === undefined) {
    for (const part of parts) sink.push(part);
    return;
  }
  if (suffix === 't' && word.endsWith('n')) {
    sink.push(word.slice(0, -1)); // "don't" -> "do not", "didn't" -> "did not"
    sink.push('not');
  } else if (suffix === 's') {
    sink.push(word); // "mira's sword" -> "mira sword"; "it's" -> "it is"
    if (EN_IS_BEFORE_S.has(word)) sink.push('is');
  } else {
    sink.push(word);
    sink.push(EN_SUFFIXES.get(suffix) ?? suffix);
  }
}

const WORD_CACHE_LIMIT = 8192;
const wordCache: Readonly<Record<Lang, Map<string, string>>> = { en: new Map(), fr: new Map() };

/** One plain word to its token: digits lose leading zeros, "3rd"/"2e" become digits, words are stemmed. */
function wordToken(word: string, lang: Lang): string {
  const cache = wordCache[lang];
  const hit = cache.get(word);
  if (hit !== undefined) return hit;
  const token = wordTokenUncached(word, lang);
  if (cache.size >= WORD_CACHE_LIMIT) cache.clear();
  cache.set(word, token);
  return token;
}

function wordTokenUncached(word: string, lang: Lang): string {
  if (DIGITS.test(word)) return word.replace(LEADING_ZEROS, '');
  const ordinal = ORDINAL_DIGITS.exec(word);
  if (ordinal?.[1] !== undefined) return ordinal[1].replace(LEADING_ZEROS, '');
  return stem(word, lang);
}

const IMPORTE = stem('importe', 'fr');

/** French `ne` negates unless it is "ne ... que" (only) or "n'importe" (any). */
function isFrenchNegation(tokens: readonly ClauseToken[], i: number): boolean {
  const clause = tokens[i]?.clause;
  if (tokens[i + 1]?.text === IMPORTE) return false;
  for (let j = i + 1; j < tokens.length && tokens[j]?.clause === clause; j += 1) {
    const text = tokens[j]?.text ?? '';
    if (FR_NE_PARTNERS.has(text)) return true;
    if (text === 'que') return false;
  }
  return true;
}

/** Tokens of `text` with their clause and negation scope. */
export function analyze(text: string, lang: Lang): Token[] {
  let folded = fold(text);
  if (lang === 'en') folded = folded.replace(EN_DIGIT_COMMA, '$1');
  const sink = new TokenSink(lang);
  for (const m of folded.matchAll(PIECES)) {
    const piece = m[1];
    if (piece === undefined) sink.clause += 1;
    else expand(piece, lang, sink);
  }
  const tokens = numbersToDigits(sink.tokens, lang);
  const negators = NEGATORS[lang];
  const out: Token[] = [];
  let negatedClause = -1;
  for (let i = 0; i < tokens.length; i += 1) {
    const t = tokens[i];
    if (t === undefined) continue;
    out.push({ text: t.text, clause: t.clause, negated: negatedClause === t.clause });
    if (negators.has(t.text) && (lang !== 'fr' || t.text !== 'ne' || isFrenchNegation(tokens, i))) {
      negatedClause = t.clause;
    }
  }
  return out;
}

/** The tokens of `text`: what phrases and heard text are compared on. */
export function normalize(text: string, lang: Lang): string[] {
  return analyze(text, lang).map((t) => t.text);
}
