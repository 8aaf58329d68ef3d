// Which candidate did the player mean? Candidates (answer rules, branches, names, items...) each have phrases; a phrase
// matches when every one of its content words is heard, in any order, each heard token used once, exactly or as a
// synonym, a typo or a sound-alike. Phrases are compiled once; heard tokens are compared with the compiled
// vocabulary once and cached, so matching a sentence is a few table lookups and a tiny assignment search.
// Not handled: multi-word synonyms ("pick up"), word senses (a 4-6 letter word one edit away from a phrase word counts:
// "doom" ~ "door"), double negation, and ranking by how much of the utterance a phrase explains (score comes first, so
// "door" at 1.0 beats "red door" heard as "read door" at 0.8).
import type { Phrases } from '../../story/format.js';
import { isFamiliar } from './familiar.js';
import { SCORES, fuzzyScore, osaDistance, phoneticKey } from './fuzzy.js';
import { type Lang, STOPWORDS } from './lexicon.js';
import { analyze, normalize, type Token } from './normalize.js';
import { builtinSynonyms, type SynonymTable } from './synonyms.js';

export interface Candidate {
  readonly id: string;
  readonly phrases: readonly string[];
}

export interface MatchResult {
  readonly id: string;
  /** Mean similarity of the phrase's words, in (0, 1]; 1 when every word was heard exactly. */
  readonly score: number;
  /** The authored phrase that matched best. */
  readonly phrase: string;
  /** How many words of the phrase were matched (its content words). */
  readonly words: number;
  /** Index, among the heard tokens, of the first one the phrase used: the order of appearance. */
  readonly start: number;
}

export interface Matcher {
  readonly lang: Lang;
  /** The best candidate, or null when no phrase of any candidate is fully heard. */
  match(heard: string): MatchResult | null;
  /** Every candidate with a matching phrase, best first (score, then longer phrase, then candidate order). */
  matchAll(heard: string): MatchResult[];
  /** Every candidate mentioned, in order of appearance, no heard word shared by two ("Mira and Tobin"). */
  mentions(heard: string): MatchResult[];
}

export interface MatcherOptions {
  /** Synonyms to use; the built-in table of the language by default (see `withStorySynonyms`). */
  readonly synonyms?: SynonymTable;
}

/** The phrases of a story `Phrases` object for a language; French falls back to English when it has none. */
export function phrasesFor(phrases: Phrases, lang: Lang): readonly string[] {
  return lang === 'fr' ? (phrases.fr ?? phrases.en) : phrases.en;
}

interface VocabWord {
  readonly text: string;
  readonly canonical: string | undefined;
  readonly key: string;
  readonly stop: boolean;
  /** A familiar English word (familiar.ts): never a typo of another familiar word. */
  readonly familiar: boolean;
}

interface CompiledPhrase {
  readonly candidate: number;
  readonly text: string;
  readonly words: readonly number[];
}

interface Found extends MatchResult {
  readonly index: number;
  readonly positions: readonly number[];
}

const LETTERS = /^[a-z]+$/;
const CACHE_LIMIT = 4096;
const SEARCH_BUDGET = 20_000;

/** Phonetic keys only for plain words long enough for a key to mean something. */
function keyOf(token: string, lang: Lang): string {
  if (token.length < 3 || !LETTERS.test(token)) return '';
  const key = phoneticKey(token, lang);
  return key.length >= 2 ? key : '';
}

const phraseCache = new Map<string, readonly string[]>();

/** Authored phrases recur across candidates, matchers and runs: normalise each once. */
function normalizePhrase(phrase: string, lang: Lang): readonly string[] {
  const cacheKey = `${lang}\u0000${phrase}`;
  const hit = phraseCache.get(cacheKey);
  if (hit !== undefined) return hit;
  if (phraseCache.size >= CACHE_LIMIT) phraseCache.clear();
  const tokens = normalize(phrase, lang);
  phraseCache.set(cacheKey, tokens);
  return tokens;
}

interface Assignment {
  readonly sum: number;
  readonly positions: readonly number[];
}

/** The best heard token for a one-word phrase (the earliest among equals). */
function bestSingle(word: number, rows: readonly (Float64Array | null)[]): Assignment | null {
  let best = 0;
  let pos = -1;
  for (let j = 0; j < rows.length; j += 1) {
    const score = rows[j]?.[word] ?? 0;
    if (score > best) {
      best = score;
      pos = j;
    }
  }
  return pos < 0 ? null : { sum: best, positions: [pos] };
}

/**
 * Depth-first search for the assignment of phrase words to distinct heard tokens with the highest total score.
 * Options are tried best first, so the first complete assignment is the greedy one; a bound prunes the rest and a
 * budget caps pathological inputs (many repeated words), keeping the best found so far.
 */
class AssignmentSearch {
  private readonly options: { pos: number; score: number }[][];
  private readonly rest: number[];
  private readonly used: Uint8Array;
  private readonly current: number[] = [];
  private best = -1;
  private bestPositions: number[] = [];
  private budget = SEARCH_BUDGET;

  constructor(private readonly words: readonly number[], rows: readonly (Float64Array | null)[]) {
    this.options = words.map((v) => {
      const list: { pos: number; score: number }[] = [];
      for (let pos = 0; pos < rows.length; pos += 1) {
        const score = rows[pos]?.[v] ?? 0;
        if (score > 0) list.push({ pos, score });
      }
      return list.sort((a, b) => b.score - a.score || a.pos - b.pos);
    });
    this.rest = new Array<number>(words.length + 1).fill(0);
    for (let i = words.length - 1; i >= 0; i -= 1) {
      this.rest[i] = (this.rest[i + 1] ?? 0) + (this.options[i]?.[0]?.score ?? 0);
    }
    this.used = new Uint8Array(rows.length);
  }

  run(): Assignment | null {
    if (this.options.some((list) => list.length === 0)) return null;
    this.search(0, 0);
    return this.best < 0 ? null : { sum: this.best, positions: this.bestPositions };
  }

  private search(i: number, sum: number): void {
    if (this.budget <= 0) return;
    this.budget -= 1;
    if (i === this.words.length) {
      if (sum > this.best) {
        this.best = sum;
        this.bestPositions = this.current.slice();
      }
      return;
    }
    if (sum + (this.rest[i] ?? 0) <= this.best) return;
    for (const { pos, score } of this.options[i] ?? []) {
      if (this.used[pos] === 1) continue;
      this.used[pos] = 1;
      this.current.push(pos);
      this.search(i + 1, sum + score);
      this.current.pop();
      this.used[pos] = 0;
    }
  }
}

/** What a matcher knows of one utterance: its candidates, and the answers derived from them once asked. */
interface Entry {
  readonly found: readonly Found[];
  /** match(): undefined until asked. */
  first: MatchResult | null | undefined;
  /** mentions(): null until asked. */
  mentions: readonly MatchResult[] | null;
}

/**
 * What the matchers know of one utterance, shared by all of them (it depends on the words only): its tokens per
 * language, and each matcher's entry by matcher id. A turn asks several matchers about the same words, so the latest
 * utterance is kept at hand and the big table is looked up once per turn.
 */
interface Utterance {
  readonly entries: Map<number, Entry>;
  en: readonly Token[] | null;
  fr: readonly Token[] | null;
  /** amountIn per language: undefined until asked, null when there is none. */
  enNumber: number | null | undefined;
  frNumber: number | null | undefined;
}

/**
 * Utterances kept (the table is emptied when full). One table for all matchers, where each matcher used to keep 4,096
 * of its own; the random simulation bot says ~5,400 different things on clockwork-siege.
 */
const UTTERANCE_LIMIT = 8192;
const utterances = new Map<string, Utterance>();
let lastHeard = '';
let lastUtterance: Utterance | null = null;
let nextMatcherId = 0;

function utterance(heard: string): Utterance {
  if (lastUtterance !== null && heard === lastHeard) return lastUtterance;
  let u = utterances.get(heard);
  if (u === undefined) {
    if (utterances.size >= UTTERANCE_LIMIT) utterances.clear();
    u = { entries: new Map(), en: null, fr: null, enNumber: undefined, frNumber: undefined };
    utterances.set(heard, u);
  }
  lastHeard = heard;
  lastUtterance = u;
  return u;
}

/** Words after which "one" is a pronoun ("that one", "a tough one", "the one on the left"), not an amount. */
const ONE_AFTER: Readonly<Record<Lang, ReadonlySet<string>>> = {
  en: new Set(['a', 'an', 'the', 'that', 'this', 'which', 'each', 'every', 'any', 'no', 'another', 'other']),
  fr: new Set(),
};

/** Words after which a number is no amount: "a second", "a third" (ordinals normalise to digits). */
const NO_AMOUNT_AFTER: Readonly<Record<Lang, ReadonlySet<string>>> = { en: new Set(['a', 'an']), fr: new Set() };

/**
 * The one amount the words name once normalised ("I bet three" -> 3), if any; kept with the utterance. None when they
 * name several different numbers (counting aloud, "one, two, one two", a phone number), only a pronoun "one" (within
 * two words of "that", "a", "the"...: "say that one more time", "that's a tough one") or a number right after "a"
 * ("for a second").
 */
export function amountIn(heard: string, lang: Lang): number | undefined {
  const u = utterance(heard);
  const key = lang === 'fr' ? 'frNumber' : 'enNumber';
  let v = u[key];
  if (v === undefined) {
    const tokens = normalize(heard, lang);
    const pronoun = (i: number): boolean => tokens[i] === '1' && [tokens[i - 1], tokens[i - 2]].some((t) => t !== undefined && ONE_AFTER[lang].has(t));
    const noAmount = (i: number): boolean => pronoun(i) || NO_AMOUNT_AFTER[lang].has(tokens[i - 1] ?? '');
    const numbers = new Set(tokens.filter((t, i) => /^\d+$/.test(t) && !noAmount(i)).map(Number));
    v = numbers.size === 1 ? ([...numbers][0] ?? null) : null;
    u[key] = v;
  }
  return v ?? undefined;
}

const byRank = (a: Found, b: Found): number => b.score - a.score || b.words - a.words || a.index - b.index;

class CompiledMatcher implements Matcher {
  private readonly vocab: VocabWord[] = [];
  private readonly vocabIndex = new Map<string, number>();
  private readonly phrases: CompiledPhrase[] = [];
  private readonly rows = new Map<string, Float64Array>();
  /** Key of this matcher's entries in the shared utterance table. */
  private readonly id = nextMatcherId++;
  private readonly stopwords: ReadonlySet<string>;

  constructor(
    private readonly candidates: readonly Candidate[],
    readonly lang: Lang,
    private readonly synonyms: SynonymTable,
  ) {
    this.stopwords = STOPWORDS[lang];
    candidates.forEach((candidate, index) => {
      for (const text of candidate.phrases) {
        const tokens = normalizePhrase(text, lang);
        const content = tokens.filter((t) => !this.stopwords.has(t));
        const words = (content.length > 0 ? content : tokens).map((t) => this.vocabId(t));
        if (words.length > 0) this.phrases.push({ candidate: index, text, words });
      }
    });
  }

  private vocabId(token: string): number {
    const known = this.vocabIndex.get(token);
    if (known !== undefined) return known;
    const id = this.vocab.length;
    this.vocab.push({
      text: token,
      canonical: this.synonyms.canonical(token),
      key: keyOf(token, this.lang),
      stop: this.stopwords.has(token),
      familiar: isFamiliar(token, this.lang),
    });
    this.vocabIndex.set(token, id);
    return id;
  }

  /** Similarity of one heard token to every vocabulary word. Stopwords only match exactly or as synonyms. */
  private row(token: string): Float64Array {
    const hit = this.rows.get(token);
    if (hit !== undefined) return hit;
    const row = new Float64Array(this.vocab.length);
    const canonical = this.synonyms.canonical(token);
    const stop = this.stopwords.has(token);
    const key = stop ? '' : keyOf(token, this.lang);
    const familiarToken = isFamiliar(token, this.lang);
    for (let v = 0; v < this.vocab.length; v += 1) {
      const word = this.vocab[v];
      if (word === undefined) continue;
      let score = word.text === token ? SCORES.exact : 0;
      if (score === 0 && canonical !== undefined && canonical === word.canonical) score = SCORES.synonym;
      if (score === 0 && !stop && !word.stop) {
        // Two familiar words that differ are two words ("think", "thank"), unless they sound the same and are spelt
        // nearly so ("read", "red"): "what" is not "wait", though their rough sound keys are the same.
        const familiarPair = familiarToken && word.familiar;
        if (!familiarPair) score = fuzzyScore(token, word.text);
        if (score === 0 && key !== '' && key === word.key && (!familiarPair || osaDistance(token, word.text, 1) <= 1)) score = SCORES.phonetic;
      }
      row[v] = score;
    }
    if (this.rows.size >= CACHE_LIMIT) this.rows.clear();
    this.rows.set(token, row);
    return row;
  }

  private analyze(heard: string): readonly Token[] {
    const u = utterance(heard);
    const lang = this.lang;
    return (u[lang] ??= analyze(heard, lang));
  }

  /** Best way to cover the phrase's words with distinct, non-negated heard tokens; null when some word is missing. */
  private assign(words: readonly number[], rows: readonly (Float64Array | null)[]): Assignment | null {
    if (words.length === 1) return bestSingle(words[0] ?? 0, rows);
    const search = new AssignmentSearch(words, rows);
    return search.run();
  }

  /** The same utterance always finds the same candidates: players and bots repeat themselves (never mutated). */
  private entry(heard: string): Entry {
    const entries = utterance(heard).entries;
    let e = entries.get(this.id);
    if (e === undefined) {
      e = { found: this.search(heard), first: undefined, mentions: null };
      entries.set(this.id, e);
    }
    return e;
  }

  private found(heard: string): readonly Found[] {
    return this.entry(heard).found;
  }

  private search(heard: string): Found[] {
    const tokens = this.analyze(heard);
    const rows: (Float64Array | null)[] = [];
    const available = new Float64Array(this.vocab.length);
    for (const t of tokens) {
      const row = t.negated ? null : this.row(t.text);
      rows.push(row);
      if (row === null) continue;
      for (let v = 0; v < row.length; v += 1) if ((row[v] ?? 0) > (available[v] ?? 0)) available[v] = row[v] ?? 0;
    }
    const best = new Map<number, Found>();
    for (const phrase of this.phrases) {
      if (phrase.words.some((v) => available[v] === 0)) continue;
      const got = this.assign(phrase.words, rows);
      if (got === null) continue;
      const candidate = this.candidates[phrase.candidate];
      if (candidate === undefined) continue;
      const result: Found = {
        id: candidate.id,
        score: Math.round((got.sum / phrase.words.length) * 1e6) / 1e6,
        phrase: phrase.text,
        words: phrase.words.length,
        start: Math.min(...got.positions),
        index: phrase.candidate,
        positions: got.positions,
      };
      const previous = best.get(phrase.candidate);
      if (previous === undefined || byRank(result, previous) < 0) best.set(phrase.candidate, result);
    }
    return [...best.values()].sort(byRank);
  }

  match(heard: string): MatchResult | null {
    const e = this.entry(heard);
    if (e.first === undefined) {
      const [first] = e.found;
      e.first = first === undefined ? null : publicResult(first);
    }
    return e.first;
  }

  matchAll(heard: string): MatchResult[] {
    return this.found(heard).map(publicResult);
  }

  mentions(heard: string): MatchResult[] {
    const e = this.entry(heard);
    e.mentions ??= findMentionsIn(e.found);
    // Results are read-only and shared; each caller gets its own array.
    return e.mentions.slice();
  }
}

/** Every candidate mentioned, in order of appearance, no heard word shared by two (see Matcher.mentions). */
function findMentionsIn(found: readonly Found[]): readonly MatchResult[] {
  const taken = new Set<number>();
  const kept: Found[] = [];
  for (const f of found) {
    if (f.positions.some((p) => taken.has(p))) continue;
    for (const p of f.positions) taken.add(p);
    kept.push(f);
  }
  return kept.sort((a, b) => a.start - b.start || a.index - b.index).map(publicResult);
}

function publicResult(f: Found): MatchResult {
  return { id: f.id, score: f.score, phrase: f.phrase, words: f.words, start: f.start };
}

/** Compiles candidates once; the matcher is then called for every utterance. */
export function compileMatcher(candidates: readonly Candidate[], lang: Lang, options: MatcherOptions = {}): Matcher {
  return new CompiledMatcher(candidates, lang, options.synonyms ?? builtinSynonyms(lang));
}

const mentionMatchers = new WeakMap<readonly Candidate[], Map<SynonymTable, Matcher>>();

/**
 * Every name mentioned in `heard`, in order of appearance ("Mira and Tobin" -> [Mira, Tobin]). The compiled matcher is
 * kept for the `names` array, which must therefore not be mutated afterwards.
 */
export function findMentions(
  heard: string,
  names: readonly Candidate[],
  lang: Lang,
  options: MatcherOptions = {},
): MatchResult[] {
  const synonyms = options.synonyms ?? builtinSynonyms(lang);
  let byTable = mentionMatchers.get(names);
  if (byTable === undefined) {
    byTable = new Map();
    mentionMatchers.set(names, byTable);
  }
  let matcher = byTable.get(synonyms);
  if (matcher === undefined || matcher.lang !== lang) {
    matcher = compileMatcher(names, lang, { synonyms });
    byTable.set(synonyms, matcher);
  }
  return matcher.mentions(heard);
}
