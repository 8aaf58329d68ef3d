import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NEGATORS, STOPWORDS } from './lexicon.js';
import { amountIn, type Candidate, compileMatcher, findMentions, type Matcher, phrasesFor } from './match.js';
import { normalize } from './normalize.js';
import { NUMBER_WORDS } from './numbers.js';
import { withStorySynonyms } from './synonyms.js';

const doors: Candidate[] = [
  { id: 'red', phrases: ['red door'] },
  { id: 'blue', phrases: ['blue door'] },
  { id: 'forest', phrases: ['forest', 'woods'] },
  { id: 'knight', phrases: ['talk to the knight', 'knight'] },
  { id: 'lantern', phrases: ['lantern'] },
];
const en = compileMatcher(doors, 'en');
const idOf = (matcher: Matcher, heard: string): string | null => matcher.match(heard)?.id ?? null;

describe('match: what the player meant', () => {
  it('matches exact phrases with score 1 and reports the phrase', () => {
    expect(en.match('I choose the red door')).toMatchObject({ id: 'red', score: 1, phrase: 'red door', words: 2 });
  });

  it('ignores word order', () => {
    expect(idOf(en, 'door red')).toBe('red');
    expect(idOf(en, 'the door, the red one')).toBe('red');
  });

  it('tolerates typos', () => {
    const got = en.match('grab the lanturn');
    expect(got).toMatchObject({ id: 'lantern', phrase: 'lantern' });
    expect(got?.score).toBeLessThan(1);
  });

  it('never takes one familiar word for another a letter away, in English', () => {
    const thanks = compileMatcher([{ id: 'take', phrases: ['yes', 'thanks', 'thank you'] }, { id: 'bell', phrases: ['bell'] }], 'en');
    // "think" is one edit from "thank": before, "Hmm, let me think" took the reward offered with "thanks".
    for (const heard of ['Hmm, let me think', 'I think so', 'let me think about it', 'the ball']) expect(idOf(thanks, heard), heard).toBeNull();
    expect(idOf(thanks, 'thanks a lot')).toBe('take');
    // A typo that makes no familiar word is still one ("thnaks"), and so is a mishearing that sounds the same.
    expect(idOf(thanks, 'thnaks')).toBe('take');
    expect(idOf(thanks, 'the belle')).toBe('bell');
    // Nor two familiar words whose rough sound keys agree but whose spellings do not ("what", "wait"); a homophone
    // spelt nearly the same still is one ("the read door" is the red door, below).
    expect(idOf(compileMatcher([{ id: 'stop', phrases: ['stop', 'wait'] }], 'en'), 'Sorry, what did you say?')).toBeNull();
    // French has no such list: "pense" and "panse" stay one edit apart and match as before.
    expect(compileMatcher([{ id: 'x', phrases: ['panse'] }], 'fr').match('pense')?.id).toBe('x');
  });

  it('tolerates mishearings that sound alike', () => {
    expect(idOf(en, 'the read door')).toBe('red');
    expect(idOf(en, 'I want to speak with the nite')).toBe('knight');
  });

  it('ranks exact above synonym above fuzzy above phonetic', () => {
    const m = compileMatcher([
      { id: 'phonetic', phrases: ['knight'] },
      { id: 'fuzzy', phrases: ['lantern'] },
      { id: 'synonym', phrases: ['attack'] },
      { id: 'exact', phrases: ['castle'] },
    ], 'en');
    expect(m.matchAll('nite lanturn smash castle').map((r) => r.id)).toEqual(['exact', 'synonym', 'fuzzy', 'phonetic']);
  });

  it('prefers the longer phrase on equal score, then the earlier candidate', () => {
    const m = compileMatcher([{ id: 'door', phrases: ['door'] }, { id: 'red', phrases: ['red door'] }], 'en');
    expect(idOf(m, 'the red door')).toBe('red');
    expect(idOf(m, 'the door')).toBe('door');
    const twins = compileMatcher([{ id: 'first', phrases: ['gate'] }, { id: 'second', phrases: ['gate'] }], 'en');
    expect(twins.matchAll('gate').map((r) => r.id)).toEqual(['first', 'second']);
  });

  it('needs every content word of a phrase, each heard word used once', () => {
    expect(idOf(en, 'the door')).toBeNull();
    const knock = compileMatcher([{ id: 'knock', phrases: ['knock knock'] }], 'en');
    expect(idOf(knock, 'knock')).toBeNull();
    expect(idOf(knock, 'knock knock')).toBe('knock');
  });

  it('matches synonyms, built-in and from the story', () => {
    const battle = compileMatcher([{ id: 'attack', phrases: ['attack'] }, { id: 'defend', phrases: ['defend'] }], 'en');
    expect(idOf(battle, 'I smash him')).toBe('attack');
    expect(idOf(battle, 'parry!')).toBe('defend');
    const story = compileMatcher(doors, 'en', { synonyms: withStorySynonyms({ lantern: ['lamp'] }, 'en') });
    expect(idOf(story, 'light the lamp')).toBe('lantern');
    expect(idOf(en, 'light the lamp')).toBeNull();
  });

  it('treats accents as optional', () => {
    const fr = compileMatcher([{ id: 'forest', phrases: ['forêt'] }, { id: 'flash', phrases: ['éclair'] }], 'fr');
    expect(idOf(fr, 'la foret')).toBe('forest');
    expect(idOf(fr, 'un eclair')).toBe('flash');
    expect(idOf(fr, 'ÉCLAIR !')).toBe('flash');
  });

  it('matches whole French sentences', () => {
    const fr = compileMatcher([
      { id: 'red', phrases: ['porte rouge'] },
      { id: 'blue', phrases: ['porte bleue'] },
      { id: 'slay', phrases: ['attaquer le dragon'] },
      { id: 'sword', phrases: ['épée'] },
      { id: 'castle', phrases: ['château'] },
    ], 'fr');
    expect(fr.match('je choisis la porte rouge')).toMatchObject({ id: 'red', score: 1 });
    expect(fr.matchAll("j'attaque le dragon avec l'épée").map((r) => r.id)).toEqual(['slay', 'sword']);
    expect(idOf(fr, 'je frappe le dragon')).toBe('slay');
    expect(idOf(fr, 'les portes rouges')).toBe('red');
    expect(idOf(fr, 'on va au chato')).toBe('castle');
  });
});

describe('match: numbers', () => {
  const bets = (lang: 'en' | 'fr', words: readonly string[]): Matcher =>
    compileMatcher(words.map((w, i) => ({ id: String(i + 1), phrases: [w] })), lang);

  it('reads bets said in words or digits', () => {
    const m = bets('en', ['one', 'two', 'three', 'four', 'five']);
    expect(idOf(m, 'bet three')).toBe('3');
    expect(idOf(m, 'I bet 3')).toBe('3');
    expect(idOf(m, 'bet tree')).toBeNull(); // numbers match only exactly
    const fr = bets('fr', ['un', 'deux', 'trois', 'quatre', 'cinq']);
    expect(idOf(fr, 'je parie trois')).toBe('3');
    expect(idOf(fr, 'je parie 3')).toBe('3');
    expect(idOf(fr, 'je parie une')).toBe('1');
    expect(idOf(fr, 'une pièce')).toBeNull();
  });

  it('reads the one amount a bet names, not counting aloud nor a pronoun "one"', () => {
    expect(amountIn('Ferrule, easy, I bet one', 'en')).toBe(1);
    expect(amountIn('I bet three on Orla', 'en')).toBe(3);
    expect(amountIn('two', 'en')).toBe(2);
    expect(amountIn('two, I said two', 'en')).toBe(2);
    // Before, each of these was a bet of the first number heard.
    expect(amountIn('One, two, three, four, five', 'en')).toBeUndefined();
    expect(amountIn('Check, one two, one two', 'en')).toBeUndefined();
    expect(amountIn('Could you say that one more time?', 'en')).toBeUndefined();
    expect(amountIn("Hmm, that's a tough one", 'en')).toBeUndefined();
    expect(amountIn('the one on the left', 'en')).toBeUndefined();
    expect(amountIn('Let me think for a second', 'en')).toBeUndefined();
    expect(amountIn('je mise deux', 'fr')).toBe(2);
    expect(amountIn('un, deux, trois', 'fr')).toBeUndefined();
  });

  it('reads compound numbers as one', () => {
    const m = compileMatcher([
      { id: '20', phrases: ['twenty'] }, { id: '21', phrases: ['twenty-one'] }, { id: '1', phrases: ['one'] },
    ], 'en');
    expect(idOf(m, 'twenty-one')).toBe('21');
    expect(idOf(m, 'twenty one')).toBe('21');
    expect(m.matchAll('twenty one').map((r) => r.id)).toEqual(['21']);
    const fr = compileMatcher([
      { id: '21', phrases: ['vingt et un'] }, { id: '80', phrases: ['quatre-vingts'] }, { id: '90', phrases: ['90'] },
    ], 'fr');
    expect(idOf(fr, 'vingt et un')).toBe('21');
    expect(idOf(fr, 'vingt-et-un')).toBe('21');
    expect(idOf(fr, 'quatre-vingt-dix')).toBe('90');
    expect(idOf(fr, 'quatre vingt')).toBe('80');
  });
});

describe('match: negation', () => {
  const paths = compileMatcher([{ id: 'forest', phrases: ['forest'] }, { id: 'castle', phrases: ['castle'] }], 'en');

  it('does not match a negated word', () => {
    expect(idOf(paths, 'not the forest')).toBeNull();
    expect(idOf(paths, 'not the forest, the castle')).toBe('castle');
    expect(idOf(paths, 'not the forest but the castle')).toBe('castle');
    expect(idOf(paths, "I don't want the forest I want the castle")).toBe('castle');
    expect(idOf(paths, 'the castle rather than the forest')).toBe('castle');
  });

  it('does not match a negated verb', () => {
    const battle = compileMatcher([{ id: 'attack', phrases: ['attack'] }, { id: 'defend', phrases: ['defend'] }], 'en');
    expect(idOf(battle, "don't attack")).toBeNull();
    expect(idOf(battle, "don't attack, defend!")).toBe('defend');
    expect(idOf(battle, 'never strike')).toBeNull();
  });

  it('understands French negation', () => {
    const fr = compileMatcher([
      { id: 'forest', phrases: ['la forêt'] },
      { id: 'castle', phrases: ['le château'] },
    ], 'fr');
    expect(idOf(fr, 'pas la foret')).toBeNull();
    expect(idOf(fr, 'je ne veux pas la forêt')).toBeNull();
    expect(idOf(fr, 'pas la forêt, le château')).toBe('castle');
    expect(idOf(fr, 'je ne veux pas la forêt mais le château')).toBe('castle');
    expect(idOf(fr, 'je ne veux que la forêt')).toBe('forest');
    expect(idOf(fr, 'sans la forêt')).toBeNull();
  });
});

describe('match: out-of-story words', () => {
  it('returns null when nothing heard belongs to any candidate', () => {
    expect(en.match('banana pancakes')).toBeNull();
    expect(en.matchAll('banana pancakes')).toEqual([]);
    expect(en.match('')).toBeNull();
    expect(en.match('the a of to please')).toBeNull();
    expect(en.match('?!')).toBeNull();
  });

  it('lets extra words around a phrase count for nothing', () => {
    expect(en.match('banana pancakes and then the blue door please')).toMatchObject({ id: 'blue', score: 1 });
  });

  it('matches a phrase made only of stopwords as written', () => {
    const m = compileMatcher([{ id: 'me', phrases: ['me'] }, { id: 'you', phrases: ['you'] }], 'en');
    expect(idOf(m, 'pick me')).toBe('me');
    expect(idOf(m, 'the')).toBeNull();
  });

  it('skips phrases that normalise to nothing', () => {
    const m = compileMatcher([{ id: 'empty', phrases: ['!!!', ''] }, { id: 'gate', phrases: ['gate'] }], 'en');
    expect(m.matchAll('gate !!!').map((r) => r.id)).toEqual(['gate']);
  });
});

describe('findMentions', () => {
  const names: Candidate[] = [
    { id: 'mira', phrases: ['Mira'] },
    { id: 'tobin', phrases: ['Tobin', 'Toby'] },
    { id: 'elder', phrases: ['Tobin the Elder'] },
    { id: 'knight', phrases: ['the knight'] },
  ];

  it('returns every name mentioned, in order of appearance', () => {
    expect(findMentions('Mira and Tobin', names, 'en').map((r) => r.id)).toEqual(['mira', 'tobin']);
    expect(findMentions('Tobin and Mira', names, 'en').map((r) => r.id)).toEqual(['tobin', 'mira']);
    expect(findMentions('the nite, Mira and Toby', names, 'en').map((r) => r.id)).toEqual(['knight', 'mira', 'tobin']);
    expect(findMentions('Mira et Tobin', names, 'fr').map((r) => r.id)).toEqual(['mira', 'tobin']);
  });

  it('gives each heard word to one name, the longer phrase first', () => {
    expect(findMentions('Mira and Tobin the Elder', names, 'en').map((r) => r.id)).toEqual(['mira', 'elder']);
  });

  it('returns nothing for no names, and skips negated ones', () => {
    expect(findMentions('banana pancakes', names, 'en')).toEqual([]);
    expect(findMentions('Mira but not Tobin', names, 'en').map((r) => r.id)).toEqual(['mira']);
  });

  it('gives the same answer from its cache as from a fresh compile', () => {
    const heard = 'Tobin, Mira';
    expect(findMentions(heard, names, 'en')).toEqual(compileMatcher(names, 'en').mentions(heard));
    expect(findMentions(heard, names, 'en')).toEqual(findMentions(heard, [...names], 'en'));
  });
});

describe('phrasesFor', () => {
  it('picks the language, French falling back to English', () => {
    expect(phrasesFor({ en: ['door'], fr: ['porte'] }, 'fr')).toEqual(['porte']);
    expect(phrasesFor({ en: ['door'] }, 'fr')).toEqual(['door']);
    expect(phrasesFor({ en: ['door'], fr: ['porte'] }, 'en')).toEqual(['door']);
  });
});

function isPlain(word: string, lang: 'en' | 'fr'): boolean {
  return !NUMBER_WORDS.has(word) && normalize(word, lang)
    .every((t) => !NEGATORS[lang].has(t) && t !== 'un' && t !== 'une' && !/^[0-9]+$/.test(t));
}

describe('match: properties', () => {
  const lang = fc.constantFrom('en' as const, 'fr' as const);
  // Negators ("not", "dont", French "n" for "n'") negate the words after them, and number words join into one
  // number; both are tested apart.
  // Arbitraries are built once per language: building them inside `chain` for every run is slow.
  const letters = fc.stringMatching(/^[a-z]{1,10}$/);
  const plainWords = {
    en: letters.filter((w) => isPlain(w, 'en')),
    fr: letters.filter((w) => isPlain(w, 'fr')),
  };
  const plainWord = (l: 'en' | 'fr') => plainWords[l];
  const phrases = {
    en: fc.array(plainWords.en, { minLength: 1, maxLength: 4 }).map((ws) => ws.join(' ')),
    fr: fc.array(plainWords.fr, { minLength: 1, maxLength: 4 }).map((ws) => ws.join(' ')),
  };
  const phraseOf = (l: 'en' | 'fr') => phrases[l];

  it('never throws on arbitrary unicode, and scores lie in (0, 1]', () => {
    const m = compileMatcher([...doors, { id: 'fr', phrases: ['forêt sombre', 'ÉCLAIR', "l'épée"] }], 'en');
    const mf = compileMatcher([...doors, { id: 'fr', phrases: ['forêt sombre', 'ÉCLAIR', "l'épée"] }], 'fr');
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (heard) => {
      for (const matcher of [m, mf]) {
        const all = matcher.matchAll(heard);
        for (const r of all) {
          expect(r.score).toBeGreaterThan(0);
          expect(r.score).toBeLessThanOrEqual(1);
        }
        expect(matcher.match(heard)?.id ?? null).toBe(all[0]?.id ?? null);
        matcher.mentions(heard);
      }
    }), { numRuns: 1500 });
  });

  it('matches any phrase of letters with itself, exactly', () => {
    fc.assert(fc.property(lang.chain((l) => fc.tuple(fc.constant(l), phraseOf(l))), ([l, phrase]) => {
      const m = compileMatcher([{ id: 'x', phrases: [phrase] }], l);
      expect(m.match(phrase)).toMatchObject({ id: 'x', score: 1 });
    }), { numRuns: 1500 });
  });

  it('never loses a match when unrelated stopwords are added to the heard text', () => {
    // Stopwords that only fill: no negators, no number joiners ("a hundred", "vingt et un"), no "que" (ne ... que).
    const fillerOf = (l: 'en' | 'fr') => fc.constantFrom(...[...STOPWORDS[l]]
      .filter((w) => !NEGATORS[l].has(w) && !['a', 'and', 'et', 'un', 'une', 'que'].includes(w)));
    const fillers = { en: fillerOf('en'), fr: fillerOf('fr') };
    const filler = (l: 'en' | 'fr') => fillers[l];
    const scenario = lang.chain((l) => fc.record({
      lang: fc.constant(l),
      phrases: fc.array(phraseOf(l), { minLength: 1, maxLength: 5 }),
      heard: fc.array(plainWord(l), { maxLength: 8 }),
      fillers: fc.array(fc.tuple(fc.nat(), filler(l)), { maxLength: 6 }),
    }));
    fc.assert(fc.property(scenario, ({ lang: l, phrases, heard, fillers }) => {
      const m = compileMatcher(phrases.map((p, i) => ({ id: `c${i}`, phrases: [p] })), l);
      // Use the candidates' own words too, so that matches happen.
      const words = [...heard, ...phrases.flatMap((p) => p.split(' ')).slice(0, 4)];
      const before = m.matchAll(words.join(' '));
      const padded = [...words];
      for (const [at, w] of fillers) padded.splice(at % (padded.length + 1), 0, w);
      const after = new Map(m.matchAll(padded.join(' ')).map((r) => [r.id, r.score]));
      for (const r of before) expect(after.get(r.id) ?? 0).toBeGreaterThanOrEqual(r.score);
    }), { numRuns: 1000 });
  });

  it('is deterministic: a fresh matcher and a warm one agree', () => {
    const candidates = [...doors, { id: 'castle', phrases: ['castle', 'fortress'] }];
    const warm = compileMatcher(candidates, 'en');
    fc.assert(fc.property(
      fc.array(fc.constantFrom('the', 'red', 'read', 'door', 'not', 'forest', 'nite', 'lanturn', 'castel', 'but', ','), {
        maxLength: 10,
      }),
      (words) => {
        const heard = words.join(' ');
        const first = warm.matchAll(heard);
        expect(warm.matchAll(heard)).toEqual(first);
        expect(compileMatcher(candidates, 'en').matchAll(heard)).toEqual(first);
      },
    ), { numRuns: 500 });
  });
});
