import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze, normalize } from './normalize.js';

const en = (text: string): string => normalize(text, 'en').join(' ');
const fr = (text: string): string => normalize(text, 'fr').join(' ');

describe('normalize: characters', () => {
  it('lower-cases and removes accents and punctuation', () => {
    expect(fr('La FORÊT, enfin !')).toBe('la foret enfin');
    expect(fr('Éclair')).toBe('eclair');
    expect(fr('forêt')).toBe(fr('foret'));
    expect(en('Hello... World?!')).toBe('hello world');
    expect(fr('cœur')).toBe('coeur');
  });

  it('folds typographic apostrophes and compatibility forms', () => {
    expect(fr('l’épée')).toBe(fr("l'epee"));
    expect(en('ｆｕｌｌ ｗｉｄｔｈ')).toBe('full width');
  });

  it('is stable on letters that decompose into an apostrophe (regression: "ŉ")', () => {
    expect(normalize('ŉ', 'en')).toEqual(normalize(normalize('ŉ', 'en').join(' '), 'en'));
  });

  it('keeps letters of other scripts as tokens', () => {
    expect(normalize('日本 дракон', 'en')).toEqual(['日本', 'дракон']);
  });

  it('returns no tokens for empty or punctuation-only text', () => {
    expect(normalize('', 'en')).toEqual([]);
    expect(normalize(' ?!… ', 'fr')).toEqual([]);
  });
});

describe('normalize: elisions and contractions', () => {
  it('splits French elisions into their full words', () => {
    expect(fr("l'épée")).toBe('le epe');
    expect(fr("j'attaque")).toBe('je attaqu');
    expect(fr("qu'il")).toBe('que il');
    expect(fr("d'accord")).toBe('de accord');
    expect(fr("c'est")).toBe('ce est');
    expect(fr("n'attaque")).toBe('ne attaqu');
    expect(fr("s'il te plaît")).toBe('se il te plait');
  });

  it('expands English contractions', () => {
    expect(en("don't")).toBe('do not');
    expect(en("I'm")).toBe('i am');
    expect(en("it's")).toBe('it is');
    expect(en("can't")).toBe('can not');
    expect(en("won't")).toBe('will not');
    expect(en("we'll")).toBe('we will');
    expect(en("they've")).toBe('they have');
    expect(en('dont')).toBe('do not');
  });

  it('drops the possessive s', () => {
    expect(en("Mira's sword")).toBe('mira sword');
  });
});

describe('normalize: stems', () => {
  it('strips English plural and verb endings conservatively', () => {
    expect(en('doors')).toBe('door');
    expect(en('attacked attacking attacks')).toBe('attack attack attack');
    expect(en('running stopped')).toBe('run stop');
    expect(en('making named')).toBe('make name');
    expect(en('berries boxes torches')).toBe('berry box torch');
    expect(en('glass bonus this')).toBe('glass bonus this');
    expect(en('thing king need')).toBe('thing king need');
    expect(en('goes went')).toBe('go go');
  });

  it('strips French plural and verb endings', () => {
    expect(fr('portes porte')).toBe('port port');
    expect(fr('attaquer attaquez attaquent attaquée attaques')).toBe('attaqu attaqu attaqu attaqu attaqu');
    expect(fr('épées épée')).toBe('epe epe');
  });

  it('never stems a word into a function word', () => {
    expect(fr('passe')).toBe('pass');
    expect(fr('pas')).toBe('pas');
  });
});

describe('normalize: numbers', () => {
  it('converts English number words', () => {
    expect(en('bet three')).toBe('bet 3');
    expect(en('twenty-one')).toBe('21');
    expect(en('twenty one')).toBe('21');
    expect(en('one hundred and five')).toBe('105');
    expect(en('a hundred')).toBe('100');
    expect(en('ninety nine')).toBe('99');
    expect(en('zero')).toBe('0');
    expect(en('two thousand and twenty')).toBe('2020');
    expect(en('one two three')).toBe('1 2 3');
  });

  it('converts French number words', () => {
    expect(fr('je parie trois')).toBe('je pari 3');
    expect(fr('vingt et un')).toBe('21');
    expect(fr('vingt-et-une')).toBe('21');
    expect(fr('quatre-vingt-dix')).toBe('90');
    expect(fr('quatre-vingts')).toBe('80');
    expect(fr('quatre-vingt-un')).toBe('81');
    expect(fr('soixante-dix')).toBe('70');
    expect(fr('soixante et onze')).toBe('71');
    expect(fr('soixante-dix-sept')).toBe('77');
    expect(fr('quatre-vingt-dix-neuf')).toBe('99');
    expect(fr('dix-huit')).toBe('18');
    expect(fr('cent')).toBe('100');
    expect(fr('deux cents')).toBe('200');
    expect(fr('deux mille vingt-quatre')).toBe('2024');
    expect(fr('septante nonante')).toBe('70 90');
  });

  it('converts ordinals', () => {
    expect(en('first second third')).toBe('1 2 3');
    expect(en('the twenty-first')).toBe('the 21');
    expect(fr('premier première deuxième troisième')).toBe('1 1 2 3');
    expect(en('1st 2nd 3rd 4th')).toBe('1 2 3 4');
    expect(fr('1er 2e 3ème')).toBe('1 2 3');
  });

  it('keeps digits, without leading zeros', () => {
    expect(en('bet 3')).toBe('bet 3');
    expect(en('007')).toBe('7');
    expect(en('1,000 coins')).toBe('1000 coin');
  });

  it('reads French un/une as 1 only at the end of a clause', () => {
    expect(fr('une porte')).toBe('une port');
    expect(fr('je parie une')).toBe('je pari 1');
    expect(fr('un, deux, trois')).toBe('1 2 3');
  });

  it('does not join numbers across punctuation', () => {
    expect(en('twenty, one')).toBe('20 1');
  });
});

describe('analyze: negation scope', () => {
  const negated = (text: string, lang: 'en' | 'fr'): string[] =>
    analyze(text, lang).filter((t) => t.negated).map((t) => t.text);

  it('negates the rest of the clause after an English negator', () => {
    expect(negated('not the forest', 'en')).toEqual(['the', 'forest']);
    expect(negated("don't attack, defend", 'en')).toEqual(['attack']);
    expect(negated('not the forest but the castle', 'en')).toEqual(['the', 'forest']);
    expect(negated('I do not want the forest I want the castle', 'en')).toEqual(['want', 'the', 'forest']);
  });

  it('handles French ne ... pas, pas alone, and ne ... que', () => {
    expect(negated('pas la forêt', 'fr')).toEqual(['la', 'foret']);
    expect(negated("je n'attaque pas le dragon", 'fr')).toEqual(['attaqu', 'pas', 'le', 'dragon']);
    expect(negated('je ne veux que la forêt', 'fr')).toEqual([]);
    expect(negated("n'importe quelle porte", 'fr')).toEqual([]);
    expect(negated('sans épée', 'fr')).toEqual(['epe']);
  });
});

describe('normalize: properties', () => {
  const text = fc.oneof(
    fc.string({ unit: 'binary' }),
    fc.string({ unit: 'grapheme' }),
    fc.array(fc.constantFrom("l'épée", 'vingt', 'et', 'un', 'une', "don't", 'quatre', 'Ünïcødé', 'twenty', 'one',
      'hundred', 'and', 'a', ',', '.', 'mais', 'ne', 'pas', 'que', 'passes', 'running', "it's", '3rd', '007', 'œuvre',
      'ŉ'))
      .map((words) => words.join(' ')),
  );

  it('is idempotent on its own output joined by spaces', () => {
    fc.assert(fc.property(text, fc.constantFrom('en' as const, 'fr' as const), (t, lang) => {
      const once = normalize(t, lang);
      expect(normalize(once.join(' '), lang)).toEqual(once);
    }), { numRuns: 2000 });
  });

  it('never throws and yields non-empty tokens without spaces', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), fc.constantFrom('en' as const, 'fr' as const), (t, lang) => {
      for (const token of normalize(t, lang)) {
        expect(token.length).toBeGreaterThan(0);
        expect(token).not.toMatch(/\s/);
      }
    }), { numRuns: 1000 });
  });
});
