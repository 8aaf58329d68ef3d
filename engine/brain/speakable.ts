// What a player can say at the current stage of a moment, as sentence patterns: the story's `say` sentences, and
// sentences generated from the team, the opponents, the items and the story's own words (battle verbs and styles,
// difficulty words, riddle answers, answer phrases, branch labels, reward names) so that every decision the engine
// accepts here has at least one sentence. A pattern is a sequence of parts, each a choice of phrases, optional or not:
// speech grammars are built from patterns, and their expansions are sentences (lint-speech, hints, the choices list).
// Only what decides something here is kept: each candidate is given to the scripted brain, typed, at this state.
import type { PlayLanguage } from '../schema/enums.js';
import { LANG_CODE } from '../schema/enums.js';
import type { GameState } from '../run/state.js';
import type { Story } from '../story/format.js';
import { localize } from '../story/text.js';
import type { Decision } from './decision.js';
import { MOMENTS } from '../moments/registry.js';
import { momentStage } from '../moments/stage.js';
import { decideScripted } from './scripted.js';
import { callNames, fold, phrases, sentence, TEMPLATES, type SpeechPattern } from './speech-parts.js';
import { upgradeOf } from '../moments/fields.js';

export type { PatternPart, SpeakableKind, SpeechPattern } from './speech-parts.js';
export { foldWords } from './speech-parts.js';

/** Whether a decision does something: an answer (right or wrong), a branch, a move, a bet, a team, an item. */
export function decides(d: Decision): boolean {
  return Boolean(d.matched || d.battle || d.selection?.length || d.equip || d.upgrade?.stage === 'bet' || (d.upgrade?.stage === 'answer' && d.upgrade.correct));
}

/** At a riddle, a wrong answer the story lists (another level's answer, "spring" when the escapement is asked for)
 *  that the words name: a guess a player made, not small talk. The brain reads anything at a riddle as a wrong answer,
 *  so only a listed one counts as a decision when heard (`decidesHeard`); the grammar offers every level's answers. */
export function riddleGuess(story: Story, state: GameState, text: string): string | null {
  const { moment: m, stage } = momentStage(story, state);
  const rules = m ? upgradeOf(m) : undefined;
  if (stage !== 'riddle' || !rules) return null;
  const said = fold(text);
  // Either language's answers (the state does not say which is played; the brain reads both).
  for (const d of rules.difficulties) for (const a of [...d.answers.en, ...(d.answers.fr ?? [])]) if (fold(a).trim() && said.includes(fold(a))) return a;
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

/** Candidate patterns of the current stage, before the brain's check. */
function candidates(story: Story, state: GameState, language: PlayLanguage): SpeechPattern[] {
  const lang = LANG_CODE[language];
  const t = TEMPLATES[lang];
  const { moment: m, stage } = momentStage(story, state);
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
  out.push(...(MOMENTS[m.type].speech?.sentences?.({ story, state, language, lang, t, m, stage, team, charNames, v, styleWords }) ?? []));
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
