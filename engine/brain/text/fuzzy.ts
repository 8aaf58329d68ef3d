// Token similarity for speech-recognition errors: a bounded Damerau-Levenshtein distance (optimal string alignment)
// for typos ("lanturn"/"lantern"), and a cheap phonetic key per language for mishearings that spell differently
// ("nite"/"knight", "read"/"red", "foret"/"forais"). Number tokens only ever match exactly.
import { type Lang } from './lexicon.js';

/** Similarity scores by kind of match, best first. A phrase's score is the mean over its words. */
export const SCORES = { exact: 1, synonym: 0.9, fuzzy1: 0.8, fuzzy2: 0.7, phonetic: 0.6 } as const;

const DIGITS = /^[0-9]+$/;
const LETTERS = /^[a-z]+$/;

/** How many edits a word of this length tolerates: none up to 3 letters, one up to 6, two beyond. */
export function maxEdits(length: number): number {
  if (length <= 3) return 0;
  return length <= 6 ? 1 : 2;
}

// Scratch rows reused across calls (the matcher calls this in hot loops); grown on demand.
let rowA = new Int32Array(32);
let rowB = new Int32Array(32);
let rowC = new Int32Array(32);

/**
 * Optimal string alignment distance between `a` and `b` (insert, delete, substitute, swap two adjacent letters), by
 * UTF-16 code unit. Stops early and returns `max + 1` once the distance is known to exceed `max`.
 */
export function osaDistance(a: string, b: string, max = Number.POSITIVE_INFINITY): number {
  if (a === b) return 0;
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > max) return max + 1;
  if (n === 0 || m === 0) return Math.max(n, m);
  if (rowA.length <= m) {
    rowA = new Int32Array(m + 1);
    rowB = new Int32Array(m + 1);
    rowC = new Int32Array(m + 1);
  }
  let prev2 = rowA; // row i - 2
  let prev = rowB; // row i - 1
  let cur = rowC;
  for (let j = 0; j <= m; j += 1) prev[j] = j;
  for (let i = 1; i <= n; i += 1) {
    cur[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= m; j += 1) {
      const cb = b.charCodeAt(j - 1);
      const cost = ca === cb ? 0 : 1;
      let d = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb) {
        d = Math.min(d, (prev2[j - 2] ?? 0) + 1);
      }
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
    const spare = prev2;
    prev2 = prev;
    prev = cur;
    cur = spare;
  }
  const d = prev[m] ?? 0;
  return d > max ? max + 1 : d;
}

/** The fuzzy score of two different tokens, or 0: within `maxEdits` of the shorter one, never for numbers. */
export function fuzzyScore(a: string, b: string): number {
  if (a === b) return SCORES.exact;
  if (DIGITS.test(a) || DIGITS.test(b)) return 0;
  const allowed = maxEdits(Math.min(a.length, b.length));
  if (allowed === 0) return 0;
  const d = osaDistance(a, b, allowed);
  if (d === 1) return SCORES.fuzzy1;
  return d === 2 && allowed >= 2 ? SCORES.fuzzy2 : 0;
}

// Sound rules, applied left to right, longest spelling first at each position. `before` restricts a rule to a
// position followed by one of its letters ('$' = end of word, '#' = any consonant or the end).
interface SoundRule { readonly from: string; readonly to: string; readonly before?: string }

const rules = (list: readonly (readonly [string, string, string?])[]): readonly SoundRule[] =>
  list
    .map(([from, to, before]) => (before === undefined ? { from, to } : { from, to, before }))
    .sort((x, y) => y.from.length - x.from.length);

const EN_RULES = rules([
  ['tch', 'x'], ['sch', 'sk'], ['ch', 'x'], ['sh', 'x'], ['ph', 'f'], ['th', '0'], ['ck', 'k'], ['qu', 'kw'],
  ['q', 'k'], ['dg', 'j'], ['gh', ''], ['wh', 'w'], ['ce', 'se'], ['ci', 'si'], ['cy', 'si'], ['c', 'k'], ['x', 'ks'],
  ['z', 's'], ['ee', 'i'], ['ie', 'i'], ['ea', 'e'], ['ei', 'e'], ['ey', 'e'], ['oo', 'u'], ['ou', 'u'], ['ew', 'u'],
  ['ue', 'u'], ['ui', 'u'], ['ai', 'a'], ['ay', 'a'], ['oa', 'o'], ['ow', 'o'], ['oe', 'o'], ['au', 'o'], ['aw', 'o'],
  ['y', 'i'],
]);

const FR_RULES = rules([
  ['eau', 'o'], ['au', 'o'], ['ain', 'I', '#'], ['ein', 'I', '#'], ['aim', 'I', '#'], ['oin', 'wI', '#'],
  ['ai', 'e'], ['ei', 'e'], ['oi', 'wa'], ['ou', 'U'], ['oeu', 'E'], ['eu', 'E'], ['oe', 'E'],
  ['an', 'A', '#'], ['am', 'A', '#'], ['en', 'A', '#'], ['em', 'A', '#'], ['on', 'O', '#'], ['om', 'O', '#'],
  ['in', 'I', '#'], ['im', 'I', '#'], ['un', 'I', '#'], ['um', 'I', '#'], ['yn', 'I', '#'],
  ['sch', 'x'], ['ch', 'x'], ['sh', 'x'], ['ph', 'f'], ['th', 't'], ['gn', 'n'], ['qu', 'k'], ['q', 'k'],
  ['gue', 'ge'], ['gui', 'gi'], ['ge', 'je'], ['gi', 'ji'], ['gy', 'ji'], ['ce', 'se'], ['ci', 'si'], ['cy', 'si'],
  ['c', 'k'], ['ss', 's'], ['x', 'ks'], ['w', 'v'], ['y', 'i'], ['h', ''],
]);

const VOWEL_CHARS = 'aeiouy';
const isVowel = (c: string | undefined): boolean => c !== undefined && VOWEL_CHARS.includes(c);

function fitsBefore(rule: SoundRule, next: string | undefined): boolean {
  if (rule.before === undefined) return true;
  if (next === undefined) return rule.before.includes('$') || rule.before.includes('#');
  if (rule.before.includes('#') && !isVowel(next) && next !== 'n' && next !== 'm') return true;
  return rule.before.includes(next);
}

function applyRules(word: string, list: readonly SoundRule[]): string {
  let out = '';
  let i = 0;
  while (i < word.length) {
    let matched = false;
    for (const rule of list) {
      if (word.startsWith(rule.from, i) && fitsBefore(rule, word[i + rule.from.length])) {
        out += rule.to;
        i += rule.from.length;
        matched = true;
        break;
      }
    }
    if (!matched) {
      out += word[i] ?? '';
      i += 1;
    }
  }
  return out;
}

/** Collapses runs of a repeated character and, for English, runs of vowels to their first vowel. */
function squeeze(key: string, collapseVowels: boolean): string {
  let out = '';
  for (const c of key) {
    const last = out[out.length - 1];
    if (c === last) continue;
    if (collapseVowels && isVowel(c) && isVowel(last)) continue;
    out += c;
  }
  return out;
}

function englishKey(word: string): string {
  let w = word;
  if (/^(?:kn|gn|pn)/.test(w)) w = w.slice(1);
  else if (w.startsWith('wr')) w = w.slice(1);
  else if (w.startsWith('ps')) w = w.slice(1);
  else if (w.startsWith('x')) w = `s${w.slice(1)}`;
  if (w.length > 3 && w.endsWith('e') && !isVowel(w[w.length - 2])) w = w.slice(0, -1); // silent final e
  const head = w.startsWith('gh') ? 'g' : '';
  return squeeze(head + applyRules(head === '' ? w : w.slice(2), EN_RULES), true);
}

function frenchKey(word: string): string {
  let w = word;
  // Silent endings: "parlent", "chaud", "nez", "trop"; after -s/-x ("portes") a final e is mute too, after -t/-z
  // ("foret", "nez") it is heard.
  let muteE = true;
  const last = w[w.length - 1] ?? '';
  if (w.endsWith('ent') && w.length > 4) w = w.slice(0, -3);
  else if (w.length > 2 && 'stxdzp'.includes(last)) {
    w = w.slice(0, -1);
    muteE = last === 's' || last === 'x';
  }
  if (muteE && w.length > 2 && w.endsWith('e') && !isVowel(w[w.length - 2])) w = w.slice(0, -1);
  // s between vowels sounds z ("poison" vs "poisson").
  let spaced = '';
  for (let i = 0; i < w.length; i += 1) {
    const c = w[i] ?? '';
    spaced += c === 's' && isVowel(w[i - 1]) && isVowel(w[i + 1]) ? 'z' : c;
  }
  return squeeze(applyRules(spaced, FR_RULES), false);
}

/**
 * A rough key for how a word sounds; two words with the same key may be one word misheard. Non-letter tokens are
 * their own key.
 */
export function phoneticKey(word: string, lang: Lang): string {
  if (!LETTERS.test(word)) return word;
  return lang === 'en' ? englishKey(word) : frenchKey(word);
}

/** Exact, fuzzy or phonetic similarity of two tokens in (0, 1], or 0 when unrelated. Synonyms are the matcher's. */
export function tokenSimilarity(a: string, b: string, lang: Lang): number {
  const fuzzy = fuzzyScore(a, b);
  if (fuzzy > 0) return fuzzy;
  if (!LETTERS.test(a) || !LETTERS.test(b) || a.length < 3 || b.length < 3) return 0;
  const ka = phoneticKey(a, lang);
  return ka.length >= 2 && ka === phoneticKey(b, lang) ? SCORES.phonetic : 0;
}
