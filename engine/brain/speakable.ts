// What a player can say at the current stage of a moment, as sentence patterns: the story's `say` sentences, and
// sentences generated from the team, the opponents, the items and the story's own words (battle verbs and styles,
// difficulty words, riddle answers, answer phrases, branch labels, reward names) so that every decision the engine
// accepts here has at least one sentence. A pattern is a sequence of parts, each a choice of phrases, optional or not:
// speech grammars are built from patterns, and their expansions are sentences (lint-speech, hints, the choices list).
// Only what decides something here is kept: each candidate is given to the scripted brain, typed, at this state.
import type { PlayLanguage } from '../schema/enums.js';
import { LANG_CODE } from '../schema/enums.js';
import { currentMoment, type GameState } from '../run/state.js';
import type { BlueprintMoment, Story } from '../story/format.js';
import { localize } from '../story/text.js';
import type { Decision } from './decision.js';
import { decideScripted } from './scripted.js';

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

/** The stage of the current moment: '' for most, 'attack' / 'defend' in battle, 'bet' / 'riddle' in an upgrade. */
export function stageOf(story: Story, state: GameState): { moment: BlueprintMoment | null; stage: '' | 'attack' | 'defend' | 'bet' | 'riddle' } {
  const pm = currentMoment(state);
  const m = pm ? story.moments.find((x) => x.id === pm.blueprint_moment_id) ?? null : null;
  if (!pm || !m) return { moment: null, stage: '' };
  if (m.type === 'Battle') return { moment: m, stage: pm.battle_phase === 'player_defense_input' && pm.pending_strike ? 'defend' : 'attack' };
  if (m.type === 'Upgrade') return { moment: m, stage: pm.upgrade_bet?.placed ? 'riddle' : 'bet' };
  return { moment: m, stage: '' };
}

/** Whether a decision does something: an answer (right or wrong), a branch, a move, a bet, a team, an item. */
export function decides(d: Decision): boolean {
  return Boolean(d.matched || d.battle || d.selection?.length || d.equip || d.upgrade?.stage === 'bet' || (d.upgrade?.stage === 'answer' && d.upgrade.correct));
}

/** At a riddle, a wrong answer the story lists (another level's answer, "spring" when the escapement is asked for)
 *  that the words name: a guess a player made, not small talk. The brain reads anything at a riddle as a wrong answer,
 *  so only a listed one counts as a decision when heard (`decidesHeard`); the grammar offers every level's answers. */
export function riddleGuess(story: Story, state: GameState, text: string): string | null {
  const { moment: m, stage } = stageOf(story, state);
  if (stage !== 'riddle' || !m?.upgrade) return null;
  const said = fold(text);
  // Either language's answers (the state does not say which is played; the brain reads both).
  for (const d of m.upgrade.difficulties) for (const a of [...d.answers.en, ...(d.answers.fr ?? [])]) if (fold(a).trim() && said.includes(fold(a))) return a;
  return null;
}

/** Whether words heard decide something here: `decides`, or a listed wrong guess at a riddle (`riddleGuess`). */
export function decidesHeard(story: Story, state: GameState, text: string, d: Decision = decideTyped(story, state, text)): boolean {
  return decides(d) || (d.upgrade?.stage === 'answer' && riddleGuess(story, state, text) !== null);
}

const FIXED_INPUT_ID = '00000000-0000-4000-8000-000000000000';

/** The scripted brain's decision on typed words at this state. */
export function decideTyped(story: Story, state: GameState, text: string): Decision {
  return decideScripted({ story, state, transcription: text, is_starting_dialogue: false, input_id: FIXED_INPUT_ID });
}

const ASCII_WORDS = /^[A-Za-z][A-Za-z' -]*$/;

/** Lower case, without accents, words of letters, digits and apostrophes separated by one space. */
export const foldWords = (s: string): string => s.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().replace(/[^a-z0-9']+/g, ' ').trim();

const fold = (s: string): string => ` ${foldWords(s)} `;

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
function callNames(story: Story, name: string, aliases: readonly string[], lang: 'en' | 'fr'): string[] {
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
function named(names: readonly (readonly string[])[]): PatternPart {
  return { options: [...new Set(names.flat())], plain: [...new Set(names.flatMap((n) => n.slice(0, 1)))] };
}

const sentence = (kind: SpeakableKind, text: string, authored = false): SpeechPattern => ({ kind, authored, parts: [{ options: [text] }], example: text });

function pattern(kind: SpeakableKind, parts: PatternPart[]): SpeechPattern {
  const example = parts.filter((p) => !p.optional).map((p) => p.options[0] ?? '').join(' ').replace(/\s+/g, ' ').trim();
  return { kind, authored: false, parts, example };
}

const TEMPLATES = {
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

function phrases(p: { en: readonly string[]; fr?: readonly string[] | undefined } | undefined, lang: 'en' | 'fr'): readonly string[] {
  if (!p) return [];
  return lang === 'fr' ? (p.fr ?? p.en) : p.en;
}

function numberWord(n: number, lang: 'en' | 'fr'): string {
  const en = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
  const fr = ['zéro', 'un', 'deux', 'trois', 'quatre', 'cinq', 'six', 'sept', 'huit', 'neuf', 'dix'];
  return (lang === 'fr' ? fr : en)[n] ?? String(n);
}

/** Candidate patterns of the current stage, before the brain's check. */
function candidates(story: Story, state: GameState, language: PlayLanguage): SpeechPattern[] {
  const lang = LANG_CODE[language];
  const t = TEMPLATES[lang];
  const { moment: m, stage } = stageOf(story, state);
  if (!m) return [];
  const out: SpeechPattern[] = [];
  for (const s of phrases(m.say, lang)) out.push(sentence('say', s, true));
  const team = state.characters.filter((c) => c.is_selected_in_assemble && c.current_health > 0);
  const charNames = (id: string | null, name: string): string[] => callNames(story, name, story.characters.find((c) => c.id === id)?.aliases ?? [], lang);
  // The story's own words for answers and branches.
  for (const a of m.answers) for (const p of phrases(a.match, lang)) out.push(sentence('answer', p));
  for (const tr of m.transitions) {
    if (tr.label) out.push(sentence('branch', localize(tr.label, language)));
    for (const p of phrases(tr.match, lang)) out.push(sentence('branch', p));
  }
  const v = story.battle_verbs;
  const styleWords = v ? [...new Set(v.styles.flatMap((s) => phrases(s.match, lang)))] : [];
  switch (m.type) {
    case 'Reward': {
      for (const r of m.rewards) {
        const names: string[][] = [];
        for (const id of r.item_ids) {
          const it = story.items.find((x) => x.id === id);
          if (it) names.push(callNames(story, localize(it.name, language), it.aliases, lang));
        }
        for (const id of r.character_ids) {
          const c = story.characters.find((x) => x.id === id);
          if (c) names.push(callNames(story, c.name, c.aliases, lang));
        }
        for (const d of r.dynamic_rewards) names.push([localize(d.name, language), ...phrases(d.match, lang)]);
        if (names.length) out.push(pattern('reward', [{ options: t.take, optional: true }, named(names)]));
      }
      break;
    }
    case 'Equip': {
      const items = state.items.map((i) => ({ i, names: callNames(story, i.name, story.items.find((x) => x.id === i.blueprint_item_id)?.aliases ?? [], lang) }));
      const members = state.characters.filter((c) => c.is_selected_in_assemble);
      if (items.length && members.length) {
        const itemNames = named(items.map((x) => x.names));
        const who = named(members.map((c) => charNames(c.blueprint_character_id, c.name)));
        out.push(pattern('equip', [{ options: t.give }, itemNames, { options: [t.to] }, who]));
        // The character first: an item named after someone ("Essence of Ferrule") would otherwise name its holder.
        out.push(pattern('equip', [who, { options: t.take_item }, itemNames]));
      }
      break;
    }
    case 'Assemble': {
      const alive = state.characters.filter((c) => c.current_health > 0);
      const who = named(alive.map((c) => charNames(c.blueprint_character_id, c.name)));
      const n = Math.max(1, m.max_number_of_characters ?? 1);
      for (let size = n; size >= 1 && who.options.length; size--) {
        const parts: PatternPart[] = [who];
        // "Orla, Tam and Ferrule": the last "and" is said, the others usually not.
        for (let k = 1; k < size; k++) parts.push({ options: [t.and], optional: true, prefer: k === size - 1 }, who);
        out.push({ ...pattern('team', parts), example: alive.slice(0, size).map((c) => c.name).join(` ${t.and} `) });
      }
      break;
    }
    case 'Battle': {
      if (!v) break;
      // A style, said after the move: its preposition and word together ("with panache"), or neither.
      // Each style's first word is its plain one.
      const style: PatternPart[] = styleWords.length
        ? [{ options: t.style, optional: true, plain: [t.with], group: 'style' }, { ...named(v.styles.map((x) => phrases(x.match, lang))), optional: true, group: 'style' }]
        : [];
      if (stage === 'defend') {
        const pm = currentMoment(state);
        const struck = state.characters.find((c) => c.id === pm?.pending_strike?.target_id);
        const names = named(struck ? [charNames(struck.blueprint_character_id, struck.name)] : []);
        const defendVerbs = [...phrases(v.defend, lang)];
        out.push(pattern('defend', [...(names.options.length ? [{ ...names, optional: true, prefer: true }] : []), { options: defendVerbs }, ...style]));
      } else {
        const foes = state.opponents.filter((o) => o.player_moment_id === currentMoment(state)?.id && o.current_health > 0);
        const targets = named(foes.map((o) => charNames(o.blueprint_character_id, o.name)));
        const actors = named(team.map((c) => charNames(c.blueprint_character_id, c.name)));
        if (targets.options.length) {
          out.push(pattern('attack', [...(actors.options.length ? [{ ...actors, optional: true, prefer: true }] : []), { options: [...phrases(v.attack, lang)] }, { options: [t.the], optional: true }, targets, ...style]));
        }
      }
      break;
    }
    case 'Upgrade': {
      const rules = m.upgrade;
      if (!rules) break;
      if (stage === 'riddle') {
        // Every level's answers: the right one, and the others as the wrong guesses a player may make.
        for (const a of new Set(rules.difficulties.flatMap((d) => phrases(d.answers, lang)))) out.push({ ...pattern('riddle', [{ options: t.it_is, optional: true, prefer: true }, { options: [a] }]) });
      } else {
        const who = named(team.map((c) => charNames(c.blueprint_character_id, c.name)));
        const levels = [...new Set(rules.difficulties.flatMap((d) => phrases(d.match, lang)))];
        const bets: string[] = [];
        for (let b = rules.min_bet; b <= rules.max_bet; b++) bets.push(numberWord(b, lang));
        if (who.options.length && levels.length && bets.length) {
          out.push(pattern('bet', [who, { options: levels }, { options: [t.bet] }, { options: bets }]));
          out.push(pattern('bet', [who]), pattern('bet', [{ options: levels }]), pattern('bet', [{ options: [t.bet] }, { options: bets }]));
        }
      }
      break;
    }
    case 'Learn': case 'Test': case 'Crossroad': case 'Teamwork': case 'Monologue': case 'Epilogue': case 'Dead End':
      break;
  }
  return out;
}

/** Every way to say a pattern, or the first `limit` of them. */
export function expand(p: SpeechPattern, limit = 1000): string[] {
  let acc: string[][] = [[]];
  for (const part of p.parts) {
    const next: string[][] = [];
    for (const words of acc) {
      if (part.optional) next.push(words);
      for (const o of part.options) next.push([...words, o]);
      if (next.length >= limit * 4) break;
    }
    acc = next;
  }
  return acc.map((w) => w.join(' ')).slice(0, limit);
}

/** The number of sentences a pattern stands for. */
export function patternSize(p: SpeechPattern): number {
  return p.parts.reduce((n, part) => n * (part.options.length + (part.optional ? 1 : 0)), 1);
}

/** What a decision does, without the words it echoes; an assemble selection compared as a set. */
export function decisionKey(d: Decision): string {
  const battle = d.battle ? { kind: d.battle.kind, actor: d.battle.actor_id ?? null, target: d.battle.target_id ?? null, thematic: d.battle.thematic } : null;
  return JSON.stringify([d.matched, d.outcome, d.perfect, d.next_moment_id ?? null, battle, d.selection ? [...d.selection].sort() : null, d.upgrade ?? null, d.equip ?? null, d.award ?? null]);
}

export type SpeakableOptions = {
  /** Also every answer and branch phrase as a sentence of its own, when a say sentence already covers its decision. */
  allPhrases?: boolean;
};

/**
 * The patterns a player can say now: the story's `say` sentences that decide something at this state, then generated
 * ones. An answer or branch phrase becomes a sentence only for a decision no earlier sentence reaches; a larger
 * pattern (names x verbs x targets...) is kept when its example decides something (its other sentences are variations
 * the brain reads the same way). At a riddle, every level's answers are kept: the right one and the wrong guesses.
 */
export function speakable(story: Story, state: GameState, language: PlayLanguage, opts: SpeakableOptions = {}): SpeechPattern[] {
  const seen = new Set<string>();
  const covered = new Set<string>();
  const out: SpeechPattern[] = [];
  for (const p of candidates(story, state, language)) {
    const key = JSON.stringify(p.parts.map((x) => [x.options, x.optional ?? false]));
    if (seen.has(key)) continue;
    seen.add(key);
    const d = decideTyped(story, state, p.example);
    if (p.kind === 'riddle') {
      if (d.upgrade?.stage === 'answer') out.push(p);
      continue;
    }
    if (!decides(d)) continue;
    const what = decisionKey(d);
    if ((p.kind === 'answer' || p.kind === 'branch') && covered.has(what) && !opts.allPhrases) continue;
    covered.add(what);
    out.push(p);
  }
  return out;
}
