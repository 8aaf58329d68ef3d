// What the scripted brain's deciders share (scripted.ts decides; each moment type's module in engine/moments/ says
// what the words achieve there): the turn's context, line variants never repeated twice in a row, the best authored
// answer, and the characters and items the player named.
import type { PlayLanguage } from '../schema/enums.js';
import type { PlayerCharacter, PlayerItem } from '../schema/player.js';
import { hashSeed, SeededRandom, type Random } from '../random.js';
import type { AnswerRule, BlueprintMoment, Story } from '../story/format.js';
import type { Text } from '../story/text.js';
import { localize } from '../story/text.js';
import { currentMoment, type GameState } from '../run/state.js';
import type { CompiledMoment, CompiledStory } from './compile.js';
import type { DecisionInput } from './decision.js';
import { compileMatcher, type Matcher, type MatchResult } from './text/match.js';
import { brainSay } from './texts.js';
import { rewardsOf } from '../moments/fields.js';

export type BrainInput = {
  story: Story;
  state: GameState;
  transcription: string;
  is_starting_dialogue: boolean;
  /** The idempotency key of the input; with the state's random state it seeds the brain. */
  input_id: string;
};

/** One turn of the scripted brain: the input, the compiled story and moment, the random source, the lines used. */
export type BrainCtx = {
  input: BrainInput;
  lang: PlayLanguage;
  cs: CompiledStory;
  cm: CompiledMoment;
  m: BlueprintMoment;
  r: Random;
  lines: Record<string, number>;
  heard: string;
};

export function brainRandom(input: BrainInput): SeededRandom {
  return new SeededRandom(hashSeed(input.input_id, input.state.rng));
}

const lineKeys = new Map<string, Map<string, string>>();

/**
 * `${momentId}:${suffix}`, one string per pair: a key built anew each turn is a rope, and looking a rope up in
 * line_memory flattens and hashes it every time.
 */
function lineKey(momentId: string, suffix: string): string {
  let bySuffix = lineKeys.get(momentId);
  if (!bySuffix) {
    if (lineKeys.size > 10_000) lineKeys.clear();
    lineKeys.set(momentId, (bySuffix = new Map<string, string>()));
  }
  let key = bySuffix.get(suffix);
  if (key === undefined) {
    key = `${momentId}:${suffix}`;
    bySuffix.set(suffix, key);
  }
  return key;
}

/** Picks a line variant (key: the moment's id, ':' and `suffix`), never the one used last time with this player (when there is a choice). */
export function line(c: BrainCtx, suffix: string, options: readonly Text[]): string {
  if (options.length === 0) return '';
  const key = lineKey(c.m.id, suffix);
  const last = c.input.state.line_memory[key];
  let i = c.r.int(options.length);
  if (options.length > 1 && i === last) i = (i + 1 + c.r.int(options.length - 1)) % options.length;
  c.lines[key] = i;
  return localize(options[i] as Text, c.lang);
}

export function base(c: BrainCtx, reply: string, extra?: Partial<DecisionInput>): DecisionInput {
  const o: DecisionInput = { reply, emotion: c.m.default_emotion, intensity: c.m.default_emotion_intensity, outcome: 'continue', lines_used: c.lines };
  // As `{ ...o, ...extra }` (withDefaults orders the fields later); a spread into a literal costs far more here.
  if (extra) for (const k in extra) (o as Record<string, unknown>)[k] = (extra as Record<string, unknown>)[k];
  return o;
}

export function fallback(c: BrainCtx): DecisionInput {
  const said = line(c, 'fallback', c.m.fallback);
  return base(c, said || brainSay('fallback', c.lang));
}

/** Whether a decoy (words that are never answers) fits better than a name or phrase matched from the same heard word:
 *  more words, or as many heard more clearly. With "hold" a decoy, "Hold on a second" names no Captain Holt. */
export function decoyAt(c: BrainCtx, m: MatchResult): boolean {
  return (c.cs.decoys?.matchAll(c.heard) ?? []).some((d) => d.start === m.start && (d.words > m.words || (d.words === m.words && d.score > m.score)));
}

/** The best authored answer, unless a decoy fits the words better. */
export function bestAnswer(c: BrainCtx): { rule: AnswerRule; match: MatchResult } | null {
  const match = c.cm.answers.match(c.heard);
  if (!match) return null;
  const decoy = c.cs.decoys?.match(c.heard);
  if (decoy && (decoy.words > match.words || (decoy.words === match.words && decoy.score > match.score))) return null;
  const rule = c.m.answers.find((a) => a.id === match.id);
  return rule ? { rule, match } : null;
}

export function answerDecision(c: BrainCtx, rule: AnswerRule): DecisionInput {
  const knownFacts = new Set([...(currentMoment(c.input.state)?.player_facts ?? []), ...rule.facts]);
  const allFacts = c.m.answers.filter((a) => a.outcome === 'progress').flatMap((a) => a.facts);
  const learned = rule.outcome === 'progress' && allFacts.length > 0 && allFacts.every((f) => knownFacts.has(f));
  const complete = rule.outcome === 'complete' || learned;
  return base(c, line(c, rule.id, rule.reply), {
    emotion: rule.emotion ?? c.m.default_emotion,
    intensity: rule.intensity ?? c.m.default_emotion_intensity,
    outcome: complete ? 'complete' : 'continue',
    ...(complete && rule.next_moment_id ? { next_moment_id: rule.next_moment_id } : {}),
    perfect: rule.perfect,
    score: rule.score,
    facts: rule.facts,
    matched: rule.id,
  });
}

const extraCache = new Map<string, Matcher>();

/** A matcher over names that are not in the story (permanent cards from other stories, dynamic items), cached. */
function extraMatcher(c: BrainCtx, candidates: { id: string; phrases: string[] }[]): Matcher {
  const key = `${c.cs.lang}|${candidates.map((x) => x.phrases.join('/')).join('|')}`;
  let mt = extraCache.get(key);
  if (!mt) {
    if (extraCache.size > 256) extraCache.clear();
    mt = compileMatcher(candidates.map((x, i) => ({ id: String(i), phrases: x.phrases })), c.cs.lang);
    extraCache.set(key, mt);
  }
  return mt;
}

/**
 * Which of these characters the player named, in order of appearance. Story characters are matched with the story's
 * compiled name matcher (names and aliases), so nothing is compiled per turn.
 */
export function mentionedCharacters(c: BrainCtx, among: readonly PlayerCharacter[]): PlayerCharacter[] {
  const found: { at: number; ch: PlayerCharacter }[] = [];
  for (const m of c.cs.characters.mentions(c.heard)) {
    if (decoyAt(c, m)) continue;
    const ch = among.find((x) => x.blueprint_character_id === m.id);
    if (ch) found.push({ at: m.start, ch });
  }
  const strangers = among.filter((x) => !x.blueprint_character_id || !c.cs.characterIds.has(x.blueprint_character_id));
  if (strangers.length > 0) {
    for (const m of extraMatcher(c, strangers.map((x) => ({ id: x.id, phrases: [x.name] }))).mentions(c.heard)) {
      const ch = strangers[Number(m.id)];
      if (ch) found.push({ at: m.start, ch });
    }
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.ch);
}

/** Which of the player's items they named, in order of appearance. */
export function mentionedItems(c: BrainCtx): PlayerItem[] {
  const items = c.input.state.items;
  const found: { at: number; it: PlayerItem }[] = [];
  for (const m of c.cs.items.mentions(c.heard)) {
    if (decoyAt(c, m)) continue;
    const it = items.find((x) => x.blueprint_item_id === m.id);
    if (it) found.push({ at: m.start, it });
  }
  const own = items.filter((x) => !x.blueprint_item_id);
  if (own.length > 0) {
    for (const m of extraMatcher(c, own.map((x) => ({ id: x.id, phrases: [x.name] }))).mentions(c.heard)) {
      const it = own[Number(m.id)];
      if (it) found.push({ at: m.start, it });
    }
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.it);
}

function styleTagsOf(c: BrainCtx, ch: PlayerCharacter | undefined): readonly string[] {
  if (!ch?.blueprint_character_id) return [];
  return c.input.story.characters.find((x) => x.id === ch.blueprint_character_id)?.style_tags ?? [];
}

/** Thematic when a style the words evoke is one of the character's style tags. */
export function thematic(c: BrainCtx, ch: PlayerCharacter | undefined): boolean {
  const tags = styleTagsOf(c, ch);
  if (!c.cs.styles || tags.length === 0) return false;
  return c.cs.styles.matchAll(c.heard).some((mm) => tags.includes(mm.id.split('#')[0] ?? ''));
}


export function fallbackOr(c: BrainCtx, generic: string): DecisionInput {
  return c.m.fallback.length > 0 ? fallback(c) : base(c, generic);
}

/** The name of a reward (a character, an item or a dynamic reward of the story), '' when the story has none by that id. */
export function rewardName(story: Story, kind: string, id: string, lang: PlayLanguage): string {
  if (kind === 'character') return story.characters.find((x) => x.id === id)?.name ?? '';
  if (kind === 'item') {
    const it = story.items.find((x) => x.id === id);
    return it ? localize(it.name, lang) : '';
  }
  const dr = story.moments.flatMap((m) => rewardsOf(m).flatMap((r) => r.dynamic_rewards)).find((x) => x.id === id);
  return dr ? localize(dr.name, lang) : '';
}

/** What talk decides: the best authored answer, else a fallback line. */
export function talkDecision(c: BrainCtx): DecisionInput {
  const answer = bestAnswer(c);
  return answer ? answerDecision(c, answer.rule) : fallback(c);
}
