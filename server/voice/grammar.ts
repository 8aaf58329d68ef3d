// The JSGF grammar and the small dictionary pocketsphinx listens with at one moment. Story phrases are keyword sets
// ("when dark") while players say sentences ("when does the light go dark?"), so the grammar is a loop of words: the
// moment's words, decoys (the story's and everyday ones), and a garbage path of single phones that absorbs the other
// words and out-of-story speech, so they are not forced onto an answer. Garbage tokens are dropped from what is heard.
// Measured on the fixture clips (see README in fixtures/audio): adding common English words ("the", "does", "you")
// to the loop lowered accuracy from 62% to 20-35%: with eSpeak voices they out-compete the story words.
import { createHash } from 'node:crypto';
import { CMU_PHONES, type Lexicon, type Speller } from './pronounce.js';

/** Everyday words that are never answers: out-of-story speech lands on them (or on garbage) rather than on answers. */
export const BUILTIN_DECOYS = `apple banana bread breakfast car cat coffee computer dog dinner football game house lunch
money movie music pancake pancakes phone pizza school shop television tomorrow weather weekend work yesterday`.split(/\s+/);

export const GARBAGE_PREFIX = 'zzg';

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
  /** Story words (vocabulary) that made it into the grammar, and those dropped for want of a pronunciation. */
  words: string[];
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

export type GrammarInput = {
  vocabulary: readonly string[];
  decoys?: readonly string[];
  lexicon: Lexicon;
  /** Spells words missing from the lexicon; null drops them. */
  speller: Speller | null;
  /** Relative weight of a story word and of a garbage phone in the loop (pocketsphinx normalises them). */
  weights?: { story: number; garbage: number };
};

/** With the decoder's -lw 60 (see pocketsphinx.ts): garbage is costly enough that words present are heard. */
export const GRAMMAR_WEIGHTS = { story: 1, garbage: 1e-4 };

export async function buildGrammar(input: GrammarInput): Promise<Grammar> {
  const weights = input.weights ?? GRAMMAR_WEIGHTS;
  const prons = new Map<string, readonly string[]>();
  const story: string[] = [];
  const dropped: string[] = [];
  const add = async (w: string, list: string[] | null): Promise<void> => {
    if (prons.has(w)) {
      if (list && !list.includes(w)) list.push(w);
      return;
    }
    const p = await pronounce(w, input.lexicon, list === story ? input.speller : null);
    if (!p) {
      if (list === story) dropped.push(w);
      return;
    }
    prons.set(w, p);
    list?.push(w);
  };
  for (const phrase of input.vocabulary) for (const w of phraseWords(phrase)) await add(w, story);
  const decoys: string[] = [];
  for (const phrase of [...(input.decoys ?? []), ...BUILTIN_DECOYS]) for (const w of phraseWords(phrase)) if (!prons.has(w)) await add(w, decoys);
  const garbage = CMU_PHONES.map((p) => `${GARBAGE_PREFIX}${p.toLowerCase()}`);
  CMU_PHONES.forEach((p, i) => prons.set(garbage[i] ?? '', [p]));

  // One rule holds every word, each with its weight: pocketsphinx normalises weights among a rule's alternatives
  // (weights on references to other rules are ignored).
  const num = (x: number): string => x.toFixed(10).replace(/\.?0+$/, '');
  const weighted = [
    ...[...story, ...decoys].map((w) => `/${num(weights.story)}/ ${w}`),
    ...(weights.garbage > 0 ? garbage.map((w) => `/${num(weights.garbage)}/ ${w}`) : []),
  ];
  const jsgf = ['#JSGF V1.0;', 'grammar looptale;', 'public <utterance> = <item>+;', `<item> = ${weighted.join(' | ')};`, ''].join('\n');
  const dictLines: string[] = [];
  for (const [w, list] of [...prons.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    list.forEach((p, i) => dictLines.push(`${i === 0 ? w : `${w}(${i + 1})`} ${p}`));
  }
  const dict = `${dictLines.join('\n')}\n`;
  const key = createHash('sha256').update(jsgf).update('\0').update(dict).digest('hex').slice(0, 16);
  return { key, jsgf, dict, words: story, dropped };
}

/** What was heard, without garbage phones; empty when only garbage was heard. */
export function cleanHypothesis(hyp: string): string {
  return hyp.split(/\s+/).filter((w) => w && !w.startsWith(GARBAGE_PREFIX) && !/^[<[(+]/.test(w)).map((w) => w.replace(/\(\d+\)$/, '')).join(' ');
}
