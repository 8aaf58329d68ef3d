// The scripted brain: a deterministic dialogue brain that needs nothing installed. Given the moment, the run state,
// the player's words and a seeded random source, it decides the reply and what the words achieve; the engine then
// checks the decision against the rules. Same seed + same inputs => the same decision, byte for byte.
import type { PlayLanguage } from '../schema/enums.js';
import { LANG_CODE } from '../schema/enums.js';
import type { PlayerCharacter, PlayerItem } from '../schema/player.js';
import { hashSeed, SeededRandom, type Random } from '../random.js';
import type { AnswerRule, BlueprintMoment, Story } from '../story/format.js';
import type { Text } from '../story/text.js';
import { localize } from '../story/text.js';
import { currentMoment, currentRun, type GameState } from '../run/state.js';
import { compileStory, type CompiledMoment, type CompiledStory } from './compile.js';
import type { Decision, DecisionInput } from './decision.js';
import { amountIn, compileMatcher, type Matcher, type MatchResult } from './text/match.js';
import { brainSay } from './texts.js';

export type BrainInput = {
  story: Story;
  state: GameState;
  transcription: string;
  is_starting_dialogue: boolean;
  /** The idempotency key of the input; with the state's random state it seeds the brain. */
  input_id: string;
};

type Ctx = {
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
function line(c: Ctx, suffix: string, options: readonly Text[]): string {
  if (options.length === 0) return '';
  const key = lineKey(c.m.id, suffix);
  const last = c.input.state.line_memory[key];
  let i = c.r.int(options.length);
  if (options.length > 1 && i === last) i = (i + 1 + c.r.int(options.length - 1)) % options.length;
  c.lines[key] = i;
  return localize(options[i] as Text, c.lang);
}

function base(c: Ctx, reply: string, extra?: Partial<DecisionInput>): DecisionInput {
  const o: DecisionInput = { reply, emotion: c.m.default_emotion, intensity: c.m.default_emotion_intensity, outcome: 'continue', lines_used: c.lines };
  // As `{ ...o, ...extra }` (withDefaults orders the fields later); a spread into a literal costs far more here.
  if (extra) for (const k in extra) (o as Record<string, unknown>)[k] = (extra as Record<string, unknown>)[k];
  return o;
}

function fallback(c: Ctx): DecisionInput {
  const said = line(c, 'fallback', c.m.fallback);
  return base(c, said || brainSay('fallback', c.lang));
}

/** Whether a decoy (words that are never answers) fits better than a name or phrase matched from the same heard word:
 *  more words, or as many heard more clearly. With "hold" a decoy, "Hold on a second" names no Captain Holt. */
function decoyAt(c: Ctx, m: MatchResult): boolean {
  return (c.cs.decoys?.matchAll(c.heard) ?? []).some((d) => d.start === m.start && (d.words > m.words || (d.words === m.words && d.score > m.score)));
}

/** The best authored answer, unless a decoy fits the words better. */
function bestAnswer(c: Ctx): { rule: AnswerRule; match: MatchResult } | null {
  const match = c.cm.answers.match(c.heard);
  if (!match) return null;
  const decoy = c.cs.decoys?.match(c.heard);
  if (decoy && (decoy.words > match.words || (decoy.words === match.words && decoy.score > match.score))) return null;
  const rule = c.m.answers.find((a) => a.id === match.id);
  return rule ? { rule, match } : null;
}

function answerDecision(c: Ctx, rule: AnswerRule): DecisionInput {
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
function extraMatcher(c: Ctx, candidates: { id: string; phrases: string[] }[]): Matcher {
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
function mentionedCharacters(c: Ctx, among: readonly PlayerCharacter[]): PlayerCharacter[] {
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
function mentionedItems(c: Ctx): PlayerItem[] {
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

function styleTagsOf(c: Ctx, ch: PlayerCharacter | undefined): readonly string[] {
  if (!ch?.blueprint_character_id) return [];
  return c.input.story.characters.find((x) => x.id === ch.blueprint_character_id)?.style_tags ?? [];
}

/** Thematic when a style the words evoke is one of the character's style tags. */
function thematic(c: Ctx, ch: PlayerCharacter | undefined): boolean {
  const tags = styleTagsOf(c, ch);
  if (!c.cs.styles || tags.length === 0) return false;
  return c.cs.styles.matchAll(c.heard).some((mm) => tags.includes(mm.id.split('#')[0] ?? ''));
}

function decideBattle(c: Ctx): DecisionInput {
  const s = c.input.state;
  const pm = currentMoment(s);
  const team = s.characters.filter((x) => x.is_selected_in_assemble && x.current_health > 0);
  const answer = bestAnswer(c);
  if (pm?.battle_phase === 'player_defense_input') {
    const struck = s.characters.find((x) => x.id === pm.pending_strike?.target_id);
    if (!c.cs.defend?.match(c.heard)) return base(c, brainSay('defend_miss', c.lang), { emotion: 'fear', intensity: 3 });
    const th = thematic(c, struck);
    return base(c, answer ? line(c, answer.rule.id, answer.rule.reply) : brainSay('defend', c.lang, { actor: struck?.name ?? '' }), {
      battle: { kind: 'defend', ...(struck ? { actor_id: struck.id } : {}), action: c.heard.slice(0, 200), thematic: th },
      perfect: th && answer?.rule.perfect === true,
    });
  }
  const attackWord = c.cs.attack?.match(c.heard);
  const actorMention = mentionedCharacters(c, team)[0];
  const foes = s.opponents.filter((o) => o.player_moment_id === pm?.id && o.current_health > 0);
  const named = c.cs.characters.mentions(c.heard).map((m) => m.id);
  const target = foes.find((o) => named.includes(o.blueprint_character_id));
  if (!attackWord && !target) return fallbackOr(c, brainSay('attack_ask', c.lang));
  const actor = actorMention ?? team[0];
  const foe = target ?? foes[0];
  if (!actor || !foe) return fallback(c);
  const th = thematic(c, actor);
  return base(c, answer ? line(c, answer.rule.id, answer.rule.reply) : brainSay('attack', c.lang, { actor: actor.name, target: foe.name }), {
    emotion: 'anger', intensity: th ? 4 : 3,
    battle: { kind: 'attack', actor_id: actor.id, target_id: foe.id, action: c.heard.slice(0, 200), thematic: th },
  });
}

function fallbackOr(c: Ctx, generic: string): DecisionInput {
  return c.m.fallback.length > 0 ? fallback(c) : base(c, generic);
}

function decideReward(c: Ctx): DecisionInput {
  const s = c.input.state;
  const owned = (kind: string, id: string): boolean =>
    kind === 'item' ? s.items.some((i) => i.blueprint_item_id === id)
      : kind === 'character' ? s.characters.some((x) => x.blueprint_character_id === id)
        : s.items.some((i) => i.acquired_in_blueprint_moment_id === c.m.id && i.blueprint_item_id === null);
  const named = c.cm.rewards.matchAll(c.heard).filter((x) => !decoyAt(c, x)).map((x) => x.id).find((x) => {
    const [kind = '', id = ''] = x.split(':');
    return !owned(kind, id);
  });
  const answer = bestAnswer(c);
  const lacking = c.m.rewards.some((r) => (r.reward_type === 'item' ? r.item_ids : r.reward_type === 'character' ? r.character_ids : r.dynamic_rewards.map((d) => d.id))
    .some((id) => !owned(r.reward_type, id)));
  // Nothing left to give: the moment ends whatever the player says, rather than trapping them.
  if (!lacking) return base(c, brainSay('nothing_left', c.lang), { outcome: 'complete', matched: 'nothing_left' });
  let pick = named;
  if (!pick && answer?.rule.outcome === 'complete') {
    outer: for (const r of c.m.rewards) {
      const ids = r.reward_type === 'item' ? r.item_ids : r.reward_type === 'character' ? r.character_ids : r.dynamic_rewards.map((d) => d.id);
      for (const id of ids) if (!owned(r.reward_type, id)) { pick = `${r.reward_type}:${id}`; break outer; }
    }
    if (!pick) return base(c, brainSay('nothing_left', c.lang), { outcome: 'complete', matched: answer.rule.id });
  }
  if (!pick) return answer ? answerDecision(c, answer.rule) : fallback(c);
  const [kind = '', id = ''] = pick.split(':');
  const reward_type = kind === 'character' ? 'character' : kind === 'item' ? 'item' : 'dynamic_item';
  const name = rewardName(c.input.story, reward_type, id, c.lang);
  const reply = answer ? line(c, answer.rule.id, answer.rule.reply) : brainSay('reward', c.lang, { name });
  return base(c, reply, { outcome: 'complete', award: { reward_type, id }, emotion: 'happiness', intensity: 3, matched: answer?.rule.id ?? pick, score: answer?.rule.score ?? 60, perfect: answer?.rule.perfect ?? false });
}

/** The name of a reward (a character, an item or a dynamic reward of the story), '' when the story has none by that id. */
export function rewardName(story: Story, kind: string, id: string, lang: PlayLanguage): string {
  if (kind === 'character') return story.characters.find((x) => x.id === id)?.name ?? '';
  if (kind === 'item') {
    const it = story.items.find((x) => x.id === id);
    return it ? localize(it.name, lang) : '';
  }
  const dr = story.moments.flatMap((m) => m.rewards.flatMap((r) => r.dynamic_rewards)).find((x) => x.id === id);
  return dr ? localize(dr.name, lang) : '';
}

function decideEquip(c: Ctx): DecisionInput {
  const team = c.input.state.characters.filter((x) => x.is_selected_in_assemble);
  if (c.input.state.items.length === 0) return base(c, brainSay('nothing_to_equip', c.lang), { outcome: 'complete', matched: 'nothing_to_equip' });
  const ch = mentionedCharacters(c, team)[0];
  const it = mentionedItems(c)[0];
  if (!ch || !it) return fallbackOr(c, brainSay('equip_ask', c.lang));
  const answer = bestAnswer(c);
  const reply = answer ? line(c, answer.rule.id, answer.rule.reply) : brainSay('equip', c.lang, { item: it.name, character: ch.name });
  return base(c, reply, { outcome: 'complete', equip: { character_id: ch.id, item_id: it.id }, emotion: 'happiness', intensity: 2, matched: answer?.rule.id ?? 'equip' });
}

function decideAssemble(c: Ctx): DecisionInput {
  const alive = c.input.state.characters.filter((x) => x.current_health > 0);
  const named = mentionedCharacters(c, alive).map((x) => x.id);
  const required = c.m.max_number_of_characters ?? 0;
  if (named.length === 0) return fallbackOr(c, brainSay('team_ask', c.lang, { required }));
  const already = alive.filter((x) => x.is_selected_in_assemble).map((x) => x.id);
  const selected = [...already, ...named.filter((x) => !already.includes(x))].slice(0, required || undefined);
  const names = selected.map((id) => alive.find((x) => x.id === id)?.name ?? '').join(', ');
  const answer = bestAnswer(c);
  const reply = answer ? line(c, answer.rule.id, answer.rule.reply) : brainSay('team', c.lang, { names, count: selected.length, required });
  return base(c, reply, { selection: named, outcome: selected.length >= required ? 'complete' : 'continue', matched: 'assemble' });
}

function decideUpgrade(c: Ctx): DecisionInput {
  const s = c.input.state;
  const pm = currentMoment(s);
  const rules = c.m.upgrade;
  if (!rules || !pm) return fallback(c);
  const bet = pm.upgrade_bet;
  if (bet?.placed) {
    const right = bet.level ? c.cm.riddles.get(bet.level)?.match(c.heard) : null;
    const answer = bestAnswer(c);
    if (right) return base(c, answer ? line(c, answer.rule.id, answer.rule.reply) : brainSay('right', c.lang), { upgrade: { stage: 'answer', correct: true }, emotion: 'happiness', intensity: 4, score: 100, matched: 'riddle' });
    return base(c, brainSay('wrong', c.lang), { upgrade: { stage: 'answer', correct: false }, emotion: 'sadness', intensity: 2 });
  }
  const team = s.characters.filter((x) => x.is_selected_in_assemble && x.current_health > 0);
  const who = mentionedCharacters(c, team)[0];
  const heardLevel = c.cm.difficulties.match(c.heard);
  const level = heardLevel && !decoyAt(c, heardLevel) ? heardLevel : null;
  const amount = amountIn(c.heard, c.cs.lang);
  if (!who && !level && amount === undefined) return fallbackOr(c, brainSay('bet_ask', c.lang));
  const character_id = who?.id ?? bet?.character_id ?? undefined;
  const lvl = level?.id ?? bet?.level ?? undefined;
  const size = amount ?? bet?.bet ?? undefined;
  const completeBet = character_id && lvl && size !== undefined;
  const riddle = rules.difficulties.find((d) => d.level === lvl)?.riddle;
  const reply = completeBet && riddle ? localize(riddle, c.lang) : brainSay('bet_ask', c.lang);
  return base(c, reply, {
    upgrade: { stage: 'bet', ...(who ? { character_id: who.id } : {}), ...(level ? { level: level.id } : {}), ...(amount !== undefined ? { bet: amount } : {}) },
    matched: 'bet',
  });
}

function decideTalk(c: Ctx): DecisionInput {
  if (c.m.type === 'Crossroad') {
    const branch = c.cm.branches.match(c.heard);
    const answer = bestAnswer(c);
    if (branch && !decoyAt(c, branch) && (!answer || branch.words >= answer.match.words)) {
      const t = c.m.transitions.find((x) => x.next_moment_id === branch.id);
      const reply = t?.reply?.length ? line(c, branch.id, t.reply) : brainSay('branch', c.lang, { label: t?.label ? localize(t.label, c.lang) : '' });
      return base(c, reply, { outcome: 'complete', next_moment_id: branch.id, score: 60, matched: `branch:${branch.id}` });
    }
  }
  const answer = bestAnswer(c);
  return answer ? answerDecision(c, answer.rule) : fallback(c);
}

const firstMoments = new WeakMap<Story, Map<string, BlueprintMoment>>();

/** The story's first moment with this id (as story.moments.find would), from an index built once per story. */
function momentById(story: Story, id: string): BlueprintMoment | undefined {
  let ix = firstMoments.get(story);
  if (!ix) {
    ix = new Map();
    for (const m of story.moments) if (!ix.has(m.id)) ix.set(m.id, m);
    firstMoments.set(story, ix);
  }
  return ix.get(id);
}

export function scriptedDecision(input: BrainInput, random?: Random): DecisionInput {
  const run = currentRun(input.state);
  const pm = currentMoment(input.state);
  const m = pm ? momentById(input.story, pm.blueprint_moment_id) : undefined;
  const lang: PlayLanguage = run?.language === 'french' ? 'french' : 'english';
  const cs = compileStory(input.story, LANG_CODE[lang]);
  const cm = m ? cs.moments.get(m.id) : undefined;
  if (!m || !cm) return { reply: '', emotion: 'normal', intensity: 1, outcome: 'continue' };
  const c: Ctx = { input, lang, cs, cm, m, r: random ?? brainRandom(input), lines: {}, heard: input.transcription };
  if (input.is_starting_dialogue) {
    const opening = line(c, 'opening', m.opening);
    const outcome = m.type === 'Dead End' ? 'end_of_game' : m.type === 'Monologue' || m.type === 'Epilogue' ? 'complete' : 'continue';
    return base(c, opening, { outcome });
  }
  switch (m.type) {
    case 'Battle': return decideBattle(c);
    case 'Reward': return decideReward(c);
    case 'Equip': return decideEquip(c);
    case 'Assemble': return decideAssemble(c);
    case 'Upgrade': return decideUpgrade(c);
    case 'Monologue': case 'Learn': case 'Test': case 'Crossroad': case 'Teamwork': case 'Epilogue': case 'Dead End':
      return decideTalk(c);
  }
}

/** The scripted brain's decision, validated. */
export function decideScripted(input: BrainInput, random?: Random): Decision {
  return withDefaults(scriptedDecision(input, random));
}

/**
 * Fills a trusted decision's defaults without a schema pass: the scripted brain is engine code and runs millions of
 * times in simulations. Decisions from outside (an LLM) go through `Decision.parse` at the edge instead.
 */
export function withDefaults(d: DecisionInput): Decision {
  // Assigned one by one in the schema's order (conditional spreads build a temporary object each).
  const o: Decision = { reply: d.reply, emotion: d.emotion, intensity: d.intensity, outcome: d.outcome } as Decision;
  if (d.next_moment_id !== undefined) o.next_moment_id = d.next_moment_id;
  o.perfect = d.perfect ?? false;
  o.cache_hit = d.cache_hit ?? false;
  o.score = d.score ?? 0;
  o.facts = d.facts ?? [];
  if (d.battle) o.battle = d.battle;
  if (d.award) o.award = d.award;
  if (d.equip) o.equip = d.equip;
  if (d.upgrade) o.upgrade = d.upgrade;
  if (d.selection) o.selection = d.selection;
  o.matched = d.matched ?? '';
  o.lines_used = d.lines_used ?? {};
  return o;
}
