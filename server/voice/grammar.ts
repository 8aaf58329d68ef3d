// The JSGF grammar and the small dictionary pocketsphinx listens with at one moment: a choice of whole sentences, the
// ones the story says players are expected to say here (the moment's `say`), against decoys (the story's and everyday
// words) that out-of-story speech lands on instead of an answer.
// Measured on the fixture clips (server/voice/bench.ts, eSpeak voices): a free loop of the moment's words with a
// garbage path of single phones got 53% of clips right (any word could follow any other, so eSpeak's odd vowels
// turned into stray story words); whole sentences with decoys at 1/100 of a sentence's weight got 96-100% per voice
// and no out-of-story sentence accepted. A moment without `say` falls back to its keyword phrases as sentences.
import { createHash } from 'node:crypto';
import type { Lexicon, Speller } from './pronounce.js';

/** Everyday words that are never answers: out-of-story speech lands on them (or on garbage) rather than on answers. */
export const BUILTIN_DECOYS = `apple banana bread breakfast car cat coffee computer dog dinner football game house lunch
money movie music pancake pancakes phone pizza school shop television tomorrow weather weekend work yesterday`.split(/\s+/);

const UNITS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve',
  'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

/** 0..9999 in English words ("21" -> "twenty one"); larger numbers digit by digit. */
export function numberToWords(n: number): string[] {
  if (!Number.isInteger(n) || n < 0) return [];
  if (n >= 10000) return String(n).split('').flatMap((d) => numberToWords(Number(d)));
  const out: string[] = [];
  if (n >= 1000) {
    out.push(...numberToWords(Math.floor(n / 1000)), 'thousand');
    n %= 1000;
    if (n === 0) return out;
  }
  if (n >= 100) {
    out.push(UNITS[Math.floor(n / 100)] ?? '', 'hundred');
    n %= 100;
    if (n === 0) return out;
  }
  if (n < 20) out.push(UNITS[n] ?? '');
  else {
    out.push(TENS[Math.floor(n / 10)] ?? '');
    if (n % 10) out.push(UNITS[n % 10] ?? '');
  }
  return out;
}

/** Lower-case ASCII words of a phrase: accents folded, punctuation dropped, numbers spelt out. */
export function phraseWords(phrase: string): string[] {
  const folded = phrase.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().replace(/[’‘`´]/g, "'");
  const out: string[] = [];
  for (const raw of folded.split(/[^a-z0-9']+/)) {
    const w = raw.replace(/^'+|'+$/g, '');
    if (!w) continue;
    const num = /^(\d+)(?:st|nd|rd|th)?$/.exec(w);
    if (num?.[1] !== undefined) out.push(...numberToWords(Number(num[1])));
    else out.push(...w.split(/(?<=[a-z])(?=\d)|(?<=\d)(?=[a-z])/).flatMap((p) => (/^\d+$/.test(p) ? numberToWords(Number(p)) : [p])));
  }
  return out;
}

export type Grammar = {
  /** Stable id of the grammar (hash of its text and dictionary). */
  key: string;
  jsgf: string;
  dict: string;
  /** The sentences that made it into the grammar (as word lists joined by spaces). */
  sentences: string[];
  /** The decoys that made it in: a hypothesis equal to one of them is not an answer. */
  decoys: string[];
  /** The same grammar without its decoys (null when it has none), for a second pass over audio a decoy won
   *  (understanding.ts). */
  bare: string | null;
  /** Phones of each dictionary entry, named as the decoder's path names it ("spring(2)" too). */
  phones: Map<string, number>;
  /** Patterns that made it in (their choices without the phrases that could not be pronounced). */
  patterns: number;
  /** Story words dropped for want of a pronunciation (their sentences are left out). */
  dropped: string[];
};

async function pronounce(word: string, lexicon: Lexicon, speller: Speller | null): Promise<readonly string[] | null> {
  const known = lexicon.get(word);
  if (known) return known;
  if (word.endsWith("'s")) {
    const base = lexicon.get(word.slice(0, -2));
    if (base) return base.map((p) => `${p} ${/(S|Z|SH|ZH|CH|JH)$/.test(p) ? 'IH Z' : /(P|T|K|F|TH)$/.test(p) ? 'S' : 'Z'}`);
  }
  if (!speller || !/^[a-z']+$/.test(word)) return null;
  const spelt = await speller(word.replace(/'/g, ''));
  return spelt ? [spelt] : null;
}

/** A sentence pattern: parts in order, each a choice of phrases, optional or not (see engine/brain/speakable.ts). */
export type GrammarPattern = { parts: readonly { options: readonly string[]; optional?: boolean }[]; weight?: number };

export type GrammarInput = {
  /** Whole sentences expected now; when empty (and no patterns), the vocabulary phrases stand in for them. */
  sentences?: readonly string[];
  /** Sentence patterns expected now, each one alternative of the grammar (weight 1 unless given). */
  patterns?: readonly GrammarPattern[];
  vocabulary: readonly string[];
  decoys?: readonly string[];
  lexicon: Lexicon;
  /** Spells words missing from the lexicon; null drops them. */
  speller: Speller | null;
  /** Weight of a decoy relative to a sentence (pocketsphinx normalises the weights of one rule's alternatives). */
  decoyWeight?: number;
  /** Add the everyday decoys (BUILTIN_DECOYS) to the story's (default true). */
  builtinDecoys?: boolean;
};

/** Decoys weigh 1/100 of a sentence: low enough that short answers ("The tide caves") are not lost to them. */
export const DECOY_WEIGHT = 0.01;

export async function buildGrammar(input: GrammarInput): Promise<Grammar> {
  const prons = new Map<string, readonly string[]>();
  const dropped: string[] = [];
  const known = async (w: string, spell: boolean): Promise<boolean> => {
    if (prons.has(w)) return true;
    const p = await pronounce(w, input.lexicon, spell ? input.speller : null);
    if (p) prons.set(w, p);
    return p !== null;
  };
  const knownWord = (w: string): Promise<boolean> => known(w, true);
  const num = (x: number): string => x.toFixed(10).replace(/\.?0+$/, '');
  const sentences: string[] = [];
  const source = input.sentences?.length || input.patterns?.length ? (input.sentences ?? []) : input.vocabulary;
  for (const phrase of source) {
    const words = phraseWords(phrase);
    if (words.length === 0) continue;
    let ok = true;
    for (const w of words) {
      if (!(await known(w, true))) {
        ok = false;
        if (!dropped.includes(w)) dropped.push(w);
      }
    }
    const text = words.join(' ');
    if (ok && !sentences.includes(text)) sentences.push(text);
  }
  const decoys: string[] = [];
  for (const phrase of [...(input.decoys ?? []), ...(input.builtinDecoys === false ? [] : BUILTIN_DECOYS)]) {
    const words = phraseWords(phrase);
    if (words.length === 0) continue;
    let ok = true;
    for (const w of words) if (!(await known(w, false))) ok = false;
    const text = words.join(' ');
    if (ok && !sentences.includes(text) && !decoys.includes(text)) decoys.push(text);
  }
  // Patterns: each part a group of the phrases that can be pronounced; a pattern with an empty required part is out.
  const rules: string[] = [];
  const patternAlternatives: string[] = [];
  for (const pat of input.patterns ?? []) {
    const groups: string[] = [];
    let ok = true;
    for (const part of pat.parts) {
      const options: string[] = [];
      for (const phrase of part.options) {
        const words = phraseWords(phrase);
        if (words.length === 0) continue;
        let known = true;
        for (const w of words) {
          if (!(await knownWord(w))) {
            known = false;
            if (!dropped.includes(w)) dropped.push(w);
          }
        }
        const text = words.join(' ');
        if (known && !options.includes(text)) options.push(text);
      }
      if (options.length === 0) {
        if (part.optional) continue;
        ok = false;
        break;
      }
      const group = options.length === 1 ? (options[0] ?? '') : `( ${options.join(' | ')} )`;
      groups.push(part.optional ? `[ ${group} ]` : group);
    }
    if (!ok || groups.length === 0) continue;
    const name = `<p${patternAlternatives.length}>`;
    rules.push(`${name} = ${groups.join(' ')};`);
    patternAlternatives.push(`/${num(pat.weight ?? 1)}/ ${name}`);
  }
  const answers = [...sentences.map((t) => `/1/ ${t}`), ...patternAlternatives];
  const alternatives = [...answers, ...decoys.map((t) => `/${num(input.decoyWeight ?? DECOY_WEIGHT)}/ ${t}`)];
  const text = (alts: readonly string[]): string => ['#JSGF V1.0;', 'grammar looptale;', `public <utterance> = ${alts.join(' | ') || '<NULL>'};`, ...rules, ''].join('\n');
  const jsgf = text(alternatives);
  const bare = decoys.length > 0 && answers.length > 0 ? text(answers) : null;
  const dictLines: string[] = [];
  const phones = new Map<string, number>();
  for (const [w, list] of [...prons.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    list.forEach((p, i) => {
      const entry = i === 0 ? w : `${w}(${i + 1})`;
      dictLines.push(`${entry} ${p}`);
      phones.set(entry, p.trim().split(/\s+/).filter(Boolean).length);
    });
  }
  const dict = `${dictLines.join('\n')}\n`;
  const key = createHash('sha256').update(jsgf).update('\0').update(dict).digest('hex').slice(0, 16);
  return { key, jsgf, dict, sentences, decoys, bare, phones, patterns: patternAlternatives.length, dropped };
}

/** What was heard, without filler tokens (<sil>, [NOISE], ...) and alternative-pronunciation marks. */
export function cleanHypothesis(hyp: string): string {
  return hyp.split(/\s+/).filter((w) => w && !/^[<[(+]/.test(w)).map((w) => w.replace(/\(\d+\)$/, '')).join(' ');
}

/** A pocketsphinx dictionary of these words (the CMU dictionary, else spelt by `speller`), sorted; words that cannot
 *  be pronounced are left out and listed. */
export async function buildDictionary(words: Iterable<string>, lexicon: Lexicon, speller: Speller | null): Promise<{ dict: string; known: Set<string>; dropped: string[] }> {
  const lines: string[] = [];
  const known = new Set<string>();
  const dropped: string[] = [];
  for (const w of [...new Set(words)].sort()) {
    const p = await pronounce(w, lexicon, speller);
    if (!p) {
      dropped.push(w);
      continue;
    }
    known.add(w);
    p.forEach((x, i) => lines.push(`${i === 0 ? w : `${w}(${i + 1})`} ${x}`));
  }
  return { dict: `${lines.join('\n')}\n`, known, dropped };
}
