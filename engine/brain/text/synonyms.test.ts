import { describe, expect, it } from 'vitest';
import { normalize } from './normalize.js';
import { builtinSynonyms, withStorySynonyms } from './synonyms.js';

const canon = (word: string, lang: 'en' | 'fr', table = builtinSynonyms(lang)): string | undefined => {
  const token = normalize(word, lang).at(-1); // the content word: "d'accord" -> "de accord"
  return token === undefined ? undefined : table.canonical(token);
};

describe('builtinSynonyms', () => {
  it('maps English variants to one id', () => {
    for (const w of ['yes', 'yeah', 'yep', 'sure', 'okay', 'OK']) expect(canon(w, 'en')).toBe('yes');
    for (const w of ['no', 'nope', 'nah']) expect(canon(w, 'en')).toBe('no');
    for (const w of ['attack', 'strike', 'hit', 'smash', 'attacking', 'smashed']) expect(canon(w, 'en')).toBe('attack');
    for (const w of ['defend', 'block', 'shield', 'parry', 'dodge']) expect(canon(w, 'en')).toBe('defend');
    expect(canon('up', 'en')).toBe('north');
    expect(canon('grab', 'en')).toBe(canon('take', 'en'));
    expect(canon('pick', 'en')).toBe('take');
  });

  it('maps French variants to the same ids as English', () => {
    for (const w of ['oui', 'ouais', 'daccord', "d'accord"]) expect(canon(w, 'fr')).toBe('yes');
    for (const w of ['attaque', 'attaquer', 'frappe', 'frappez']) expect(canon(w, 'fr')).toBe('attack');
    for (const w of ['défends', 'bloque', 'pare', 'esquive']) expect(canon(w, 'fr')).toBe('defend');
    // An English fallback phrase normalised as French keeps its id.
    expect(canon('attack', 'fr')).toBe('attack');
  });

  it('maps everyday words for what stories ask about (players say "steps" for the story\'s "stairs")', () => {
    for (const w of ['stairs', 'steps', 'staircase', 'stairway']) expect(canon(w, 'en')).toBe('stairs');
    for (const w of ['missing', 'stolen', 'vanished', 'lost']) expect(canon(w, 'en')).toBe('missing');
    expect(canon('hour', 'en')).toBe('time');
    // Not "gone" for missing: it normalises to "go" (the go group), and "how is your day going" would be missing.
    expect(canon('gone', 'en')).toBe('go');
  });

  it('leaves unknown words alone and stays small', () => {
    expect(canon('lantern', 'en')).toBeUndefined();
    expect(canon('lanterne', 'fr')).toBeUndefined();
  });
});

describe('withStorySynonyms', () => {
  it('adds story groups on top of the built-ins, story entries winning', () => {
    const table = withStorySynonyms({ lantern: ['lamp', 'torch'], flee: ['up'] }, 'en');
    expect(canon('lamps', 'en', table)).toBe('lantern');
    expect(canon('lantern', 'en', table)).toBe('lantern');
    expect(canon('up', 'en', table)).toBe('flee');
    expect(canon('yeah', 'en', table)).toBe('yes');
    // The built-in table is not changed.
    expect(canon('lamp', 'en')).toBeUndefined();
  });

  it('extends a built-in group and ignores multi-word variants', () => {
    const table = withStorySynonyms({ attack: ['zap', 'cast a spell'] }, 'en');
    expect(canon('zap', 'en', table)).toBe('attack');
    expect(canon('spell', 'en', table)).toBeUndefined();
  });

  it('can layer on a custom table', () => {
    const base = { lang: 'en' as const, canonical: (t: string) => (t === 'glim' ? 'light' : undefined) };
    const table = withStorySynonyms({ light: ['lumen'] }, 'en', base);
    expect(table.canonical('glim')).toBe('light');
    expect(table.canonical('lumen')).toBe('light');
  });
});
