// Built-in synonyms: common ways of saying yes, no, attack, defend, take... mapped to one canonical id shared by both
// languages ("frappe" and "smash" are both `attack`), so an English fallback phrase still catches a French player.
// Keys are normalised tokens, so "attacked", "attaquez" and "d'accord" find their group. Stories add their own with
// `withStorySynonyms`.
import { type Lang, STOPWORDS } from './lexicon.js';
import { normalize } from './normalize.js';

/** Canonical id -> the words that mean it. The id itself also counts as a variant. */
export type SynonymGroups = Readonly<Record<string, readonly string[]>>;

/** Lookup from a normalised token to its canonical id. */
export interface SynonymTable {
  readonly lang: Lang;
  canonical(token: string): string | undefined;
}

const EN_GROUPS: SynonymGroups = {
  yes: ['yes', 'yeah', 'yep', 'yup', 'ya', 'sure', 'okay', 'ok', 'alright', 'aye', 'affirmative', 'certainly',
    'absolutely', 'indeed', 'correct', 'agreed'],
  no: ['no', 'nope', 'nah', 'nay', 'negative'],
  attack: ['attack', 'strike', 'hit', 'smash', 'fight', 'bash', 'slash', 'stab', 'punch', 'charge', 'assault'],
  defend: ['defend', 'block', 'shield', 'parry', 'dodge', 'guard', 'protect', 'evade', 'defence', 'defense'],
  flee: ['flee', 'run', 'escape', 'retreat'],
  take: ['take', 'grab', 'pick', 'collect', 'get', 'seize'],
  give: ['give', 'offer', 'hand'],
  look: ['look', 'examine', 'inspect', 'search', 'check'],
  talk: ['talk', 'speak', 'chat'],
  open: ['open', 'unlock'],
  go: ['go', 'walk', 'move', 'travel'],
  north: ['north', 'up', 'upward', 'upwards', 'northward'],
  south: ['south', 'down', 'downward', 'downwards', 'southward'],
  east: ['east', 'eastward'],
  west: ['west', 'westward'],
  hello: ['hello', 'hi', 'hey', 'greetings', 'howdy'],
  goodbye: ['goodbye', 'bye', 'farewell'],
  thanks: ['thanks', 'thank', 'cheers'],
  help: ['help', 'assist', 'aid'],
  easy: ['easy', 'simple'],
  medium: ['medium', 'normal', 'average', 'middle'],
  hard: ['hard', 'difficult', 'tough'],
  bet: ['bet', 'wager', 'stake', 'gamble'],
  // Everyday words for what stories ask about, said for a story's own words ("steps" for "stairs"). Not "gone" for
  // missing: it normalises to "go", so "go" and "going" would then mean missing.
  stairs: ['stairs', 'steps', 'staircase', 'stairway', 'stair'],
  missing: ['missing', 'stolen', 'vanished', 'lost'],
  time: ['time', 'hour'],
};

const FR_GROUPS: SynonymGroups = {
  yes: ['oui', 'ouais', 'ouaip', 'ouep', 'daccord', "d'accord", 'ok', 'okay', 'certes', 'absolument', 'exactement',
    'entendu', 'volontiers'],
  no: ['non', 'nan', 'nenni'],
  attack: ['attaque', 'attaquer', 'frappe', 'frapper', 'cogne', 'tape', 'combat', 'combattre', 'charge', 'assaut'],
  defend: ['defend', 'defends', 'defendre', 'defense', 'bloque', 'bloquer', 'pare', 'parer', 'esquive', 'esquiver',
    'protege', 'proteger', 'bouclier', 'garde'],
  flee: ['fuis', 'fuir', 'fuite', 'recule', 'reculer', 'echappe', 'sauve'],
  take: ['prends', 'prendre', 'attrape', 'ramasse', 'saisis', 'recupere', 'prise'],
  give: ['donne', 'donner', 'offre', 'offrir'],
  look: ['regarde', 'regarder', 'examine', 'fouille', 'inspecte', 'observe'],
  talk: ['parle', 'parler', 'discute', 'discuter'],
  open: ['ouvre', 'ouvrir', 'deverrouille'],
  go: ['aller', 'marche', 'avance', 'dirige'],
  north: ['nord', 'haut'],
  south: ['sud', 'bas'],
  west: ['ouest'],
  hello: ['bonjour', 'salut', 'coucou', 'bonsoir'],
  goodbye: ['aurevoir', 'au revoir', 'adieu'],
  thanks: ['merci'],
  help: ['aide', 'aider', 'secours'],
  easy: ['facile', 'simple'],
  medium: ['moyen', 'moyenne', 'normal', 'intermediaire'],
  hard: ['difficile', 'dur', 'dure'],
  bet: ['parie', 'parier', 'pari', 'mise', 'miser'],
};

/** The one content token a variant stands for ("d'accord" -> "accord"), or undefined when it has none or several. */
function variantToken(variant: string, lang: Lang): string | undefined {
  const tokens = normalize(variant, lang);
  const content = tokens.filter((t) => !STOPWORDS[lang].has(t));
  const pick = content.length > 0 ? content : tokens;
  return pick.length === 1 ? pick[0] : undefined;
}

class MapTable implements SynonymTable {
  constructor(readonly lang: Lang, readonly map: ReadonlyMap<string, string>) {}

  canonical(token: string): string | undefined {
    return this.map.get(token);
  }
}

function addGroups(map: Map<string, string>, groups: SynonymGroups, lang: Lang): void {
  for (const [id, variants] of Object.entries(groups)) {
    for (const variant of [id, ...variants]) {
      const token = variantToken(variant, lang);
      if (token !== undefined) map.set(token, id);
    }
  }
}

const builtins: Partial<Record<Lang, SynonymTable>> = {};

/** The built-in table of a language (built once). */
export function builtinSynonyms(lang: Lang): SynonymTable {
  const cached = builtins[lang];
  if (cached !== undefined) return cached;
  const map = new Map<string, string>();
  addGroups(map, lang === 'en' ? EN_GROUPS : FR_GROUPS, lang);
  const table = new MapTable(lang, map);
  builtins[lang] = table;
  return table;
}

/**
 * A table with a story's own synonyms on top of `base` (the built-ins by default). A story entry wins over a built-in
 * one for the same word. A variant that normalises to several content words ("pick up the key") is ignored: phrases
 * already express multi-word wording.
 */
export function withStorySynonyms(
  extra: SynonymGroups,
  lang: Lang,
  base: SynonymTable = builtinSynonyms(lang),
): SynonymTable {
  const own = new Map<string, string>();
  addGroups(own, extra, lang);
  if (base instanceof MapTable) return new MapTable(lang, new Map([...base.map, ...own]));
  return { lang, canonical: (token) => own.get(token) ?? base.canonical(token) };
}
