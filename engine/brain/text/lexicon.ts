// Closed word lists the text layer needs per language: stopwords, negators, clause breakers, elisions, contractions and
// irregular forms. Every entry is written in normalised form (lower case, no accents), because it is compared with
// normalised tokens.
import { type LangCode } from '../../schema/enums.js';

export type Lang = LangCode;

type PerLang<T> = Readonly<Record<Lang, T>>;

const set = (words: string): ReadonlySet<string> => new Set(words.split(/\s+/).filter((w) => w.length > 0));

/** Words that negate what follows in their clause ("not the forest", "pas la foret", "sans l'epee"). */
export const NEGATORS: PerLang<ReadonlySet<string>> = {
  en: set('not never without except nor than instead'),
  // `ne` alone is special-cased: "je ne veux que la foret" (only) is not a negation.
  fr: set('ne pas jamais sans sauf ni lieu rien aucun aucune'),
};

/** French words that make a preceding `ne` a real negation; a `que` reached first makes it restrictive ("only"). */
export const FR_NE_PARTNERS: ReadonlySet<string> = set('pas jamais rien aucun aucune plus personne guere point');

/**
 * Words that start a new clause, ending the scope of a negation before them ("not the forest but the castle",
 * "je ne veux pas la foret je veux le chateau"). Punctuation also ends a clause.
 */
export const CLAUSE_BREAKERS: PerLang<ReadonlySet<string>> = {
  en: set('but though however rather actually then i'),
  fr: set('mais plutot pourtant sinon puis ensuite finalement je'),
};

/** Ignored as content on both sides; a phrase made only of them is matched as is. Includes negators and breakers. */
export const STOPWORDS: PerLang<ReadonlySet<string>> = {
  en: new Set([
    ...set(`a an the to of for from in on at into onto by with about please pls i me my mine myself we us our you
      your yours it its is am are was were be been being do did done and or so if that this these those there here
      will would shall should can could may might must let want wanna gonna like um uh uhm er erm hmm just
      really oh ah some any very too also`).values(),
    ...NEGATORS.en,
    ...CLAUSE_BREAKERS.en,
  ]),
  fr: new Set([
    ...set(`le la les un une des de du au aux a je me moi te toi tu il elle on nous vous ils elles se ce cet cette ces
      ca cela ceci mon ma mes ton ta tes son sa ses notre nos votre vos leur leurs et ou que qui quoi est suis es
      sommes etes sont ai as avons avez ont veux veut voudrais en dans sur avec pour par y svp plait sil euh
      heu bon ben bah hein alors donc voila tres aussi`).values(),
    ...NEGATORS.fr,
    ...CLAUSE_BREAKERS.fr,
  ]),
};

/** French elided words, written without the apostrophe, and what they stand for ("l'epee" -> "le epee"). */
export const FR_ELISIONS: ReadonlyMap<string, string> = new Map([
  ['l', 'le'], ['d', 'de'], ['j', 'je'], ['qu', 'que'], ['c', 'ce'], ['n', 'ne'], ['s', 'se'], ['m', 'me'], ['t', 'te'],
  ['jusqu', 'jusque'], ['lorsqu', 'lorsque'], ['puisqu', 'puisque'],
]);

/** English contractions kept whole, including the common apostrophe-less spellings recognisers produce. */
export const EN_CONTRACTIONS: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>([
  ["can't", ['can', 'not']], ['cant', ['can', 'not']], ['cannot', ['can', 'not']],
  ["won't", ['will', 'not']], ["shan't", ['shall', 'not']], ["ain't", ['is', 'not']],
  ['dont', ['do', 'not']], ['didnt', ['did', 'not']], ['doesnt', ['does', 'not']], ['isnt', ['is', 'not']],
  ['arent', ['are', 'not']], ['wasnt', ['was', 'not']], ['couldnt', ['could', 'not']],
  ['wouldnt', ['would', 'not']], ['shouldnt', ['should', 'not']], ['im', ['i', 'am']], ['ive', ['i', 'have']],
  ['youre', ['you', 'are']], ['theyre', ['they', 'are']], ['thats', ['that', 'is']], ['whats', ['what', 'is']],
  ["let's", ['let', 'us']],
]);

/** English contraction endings after an apostrophe ("we've", "they'll"); `'s` is handled apart (is vs possessive). */
export const EN_SUFFIXES: ReadonlyMap<string, string> = new Map([
  ['m', 'am'], ['re', 'are'], ['ve', 'have'], ['ll', 'will'], ['d', 'would'],
]);

/** Words before which `'s` means "is" ("it's"); after any other word it is a possessive and is dropped. */
export const EN_IS_BEFORE_S: ReadonlySet<string> = set('it that what there here he she who where how let');

/** Irregular forms the suffix stripper cannot reach; values must not themselves be keys. */
export const IRREGULAR: PerLang<ReadonlyMap<string, string>> = {
  en: new Map([
    ['goes', 'go'], ['went', 'go'], ['gone', 'go'], ['going', 'go'], ['does', 'do'], ['doing', 'do'], ['took', 'take'],
    ['taken', 'take'], ['ran', 'run'], ['fought', 'fight'], ['chose', 'choose'], ['chosen', 'choose'],
    ['gave', 'give'], ['given', 'give'], ['said', 'say'], ['told', 'tell'], ['found', 'find'], ['stole', 'steal'],
    ['stolen', 'steal'], ['threw', 'throw'], ['thrown', 'throw'], ['men', 'man'], ['women', 'woman'],
    ['children', 'child'], ['knives', 'knife'], ['wolves', 'wolf'], ['thieves', 'thief'], ['elves', 'elf'],
    ['dwarves', 'dwarf'], ['lives', 'life'], ['mice', 'mouse'], ['teeth', 'tooth'], ['feet', 'foot'],
  ]),
  fr: new Map([
    ['yeux', 'oeil'], ['chevaux', 'cheval'], ['animaux', 'animal'], ['vais', 'aller'], ['vas', 'aller'],
    ['va', 'aller'], ['allons', 'aller'], ['vont', 'aller'], ['fais', 'faire'], ['fait', 'faire'],
    ['prends', 'prendre'], ['prend', 'prendre'], ['prenez', 'prendre'], ['pris', 'prendre'],
  ]),
};
