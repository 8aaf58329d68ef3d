// The pieces speakable.ts and the moment types build what a player can say from: sentence patterns and their parts,
// the names a player calls people and things by in the language played, and the template words around them.
import type { Story } from '../story/format.js';

export type SpeakableKind = 'say' | 'answer' | 'branch' | 'reward' | 'equip' | 'team' | 'attack' | 'defend' | 'bet' | 'riddle';

export type PatternPart = {
  options: readonly string[];
  optional?: boolean;
  /** An optional part a player usually says ("the" before a target, who acts): said before it is left out. */
  prefer?: boolean;
  /** The options a player says most naturally (each person's or thing's name, not its aliases; "with" before a style
   *  word), in order; the others come after them. All of them, in order, when absent. */
  plain?: readonly string[];
  /** Optional parts said together or not at all (a style's preposition and its word). */
  group?: string;
};

export type SpeechPattern = {
  kind: SpeakableKind;
  /** True for sentences the story lists (`say`); false for generated ones. */
  authored: boolean;
  parts: readonly PatternPart[];
  /** The pattern's plainest sentence (first option of every part, optional parts left out unless needed). */
  example: string;
};


const ASCII_WORDS = /^[A-Za-z][A-Za-z' -]*$/;

/** Lower case, without accents, words of letters, digits and apostrophes separated by one space. */
export const foldWords = (s: string): string => s.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().replace(/[^a-z0-9']+/g, ' ').trim();

export const fold = (s: string): string => ` ${foldWords(s)} `;

type StoryTexts = { en: string; fr: string };
const textsCache = new WeakMap<Story, StoryTexts>();

/** Every English and every French text of the story, folded, to tell an alias's language. */
function storyTexts(story: Story): StoryTexts {
  let t = textsCache.get(story);
  if (t) return t;
  const en: string[] = [];
  const fr: string[] = [];
  const walk = (v: unknown, key: string): void => {
    if (typeof v === 'string') {
      if (key === 'en') en.push(v);
      else if (key === 'fr') fr.push(v);
      return;
    }
    if (Array.isArray(v)) for (const x of v) walk(x, key);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k === 'en' || k === 'fr' ? k : key === 'en' || key === 'fr' ? key : k);
  };
  walk(story.moments, '');
  walk(story.items, '');
  walk(story.characters.map((c) => c.description), '');
  walk(story.battle_verbs, '');
  t = { en: en.map(fold).join('|'), fr: fr.map(fold).join('|') };
  textsCache.set(story, t);
  return t;
}

/** Names a player may call someone or something by, in the language played. English leaves out non-ASCII spellings
 *  and aliases the story only ever writes in French ("le chien", "Capitaine Holt"). */
export function callNames(story: Story, name: string, aliases: readonly string[], lang: 'en' | 'fr'): string[] {
  const texts = storyTexts(story);
  const out = [name, ...aliases].filter((n) => {
    if (lang === 'fr' || n === name) return true;
    if (!ASCII_WORDS.test(n) || /^(l'|d'|le |la |les |un |une )/i.test(n)) return false;
    const f = fold(n);
    return texts.en.includes(f) || !texts.fr.includes(f);
  });
  return [...new Set(out.map((n) => n.trim()).filter(Boolean))];
}

/** A part naming one of several people or things, each by any of its names: their own names are the plain options. */
export function named(names: readonly (readonly string[])[]): PatternPart {
  return { options: [...new Set(names.flat())], plain: [...new Set(names.flatMap((n) => n.slice(0, 1)))] };
}

export const sentence = (kind: SpeakableKind, text: string, authored = false): SpeechPattern => ({ kind, authored, parts: [{ options: [text] }], example: text });

export function pattern(kind: SpeakableKind, parts: PatternPart[]): SpeechPattern {
  const example = parts.filter((p) => !p.optional).map((p) => p.options[0] ?? '').join(' ').replace(/\s+/g, ' ').trim();
  return { kind, authored: false, parts, example };
}

export const TEMPLATES = {
  en: {
    take: ['I\'ll take the', 'I choose the', 'the'],
    give: ['give the', 'hand the'],
    to: 'to',
    bet: 'I bet',
    and: 'and',
    it_is: ['it is the', 'it\'s the', 'it is a', 'the answer is'],
    the: 'the',
    take_item: ['take the', 'carry the'],
    style: ['into the', 'from the', 'like', 'with', 'as'],
    with: 'with',
  },
  fr: {
    take: ['je prends', 'je choisis', 'le', 'la'],
    give: ['donne', 'donne le', 'donne la'],
    to: 'à',
    bet: 'je mise',
    and: 'et',
    it_is: ['c\'est le', 'c\'est la', 'c\'est un', 'la réponse est'],
    the: 'le',
    take_item: ['prends', 'porte'],
    style: ['dans', 'depuis', 'comme', 'avec'],
    with: 'avec',
  },
} as const;

export function phrases(p: { en: readonly string[]; fr?: readonly string[] | undefined } | undefined, lang: 'en' | 'fr'): readonly string[] {
  if (!p) return [];
  return lang === 'fr' ? (p.fr ?? p.en) : p.en;
}

export function numberWord(n: number, lang: 'en' | 'fr'): string {
  const en = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
  const fr = ['zéro', 'un', 'deux', 'trois', 'quatre', 'cinq', 'six', 'sept', 'huit', 'neuf', 'dix'];
  return (lang === 'fr' ? fr : en)[n] ?? String(n);
}

