// Which decisions the engine accepts at the current stage of a moment, and whether a player can say each of them:
// for every action (an answer, a branch, a reward, an item on a character, a team member, an attack by each fighter on
// each foe, plain or in the fighter's style, a defence, a bet, a riddle answer) look for a sentence among what is
// speakable here (speakable.ts) that the scripted brain, typed, reads as that action. `looptale story lint-speech`
// fails a story where an action has none.
import type { PlayLanguage } from '../schema/enums.js';
import { currentMoment, type GameState } from '../run/state.js';
import type { Story } from '../story/format.js';
import { MOMENTS } from '../moments/registry.js';
import type { Action } from '../moments/speech-hooks.js';
import { momentStage } from '../moments/stage.js';
import { decideTyped, patternSize, speakable, type SpeechPattern } from './speakable.js';

export type { Action } from '../moments/speech-hooks.js';

/** The actions the engine accepts now. */
export function acceptedActions(story: Story, state: GameState): Action[] {
  const { moment: m, stage } = momentStage(story, state);
  if (!m) return [];
  const out: Action[] = [];
  const pm = currentMoment(state);
  const momentName = (id: string): string => story.moments.find((x) => x.id === id)?.name.en ?? id;
  const team = state.characters.filter((c) => c.is_selected_in_assemble && c.current_health > 0);
  const stylish = (blueprintId: string | null): boolean => {
    const tags = story.characters.find((c) => c.id === blueprintId)?.style_tags ?? [];
    return (story.battle_verbs?.styles ?? []).some((s) => tags.includes(s.tag));
  };
  const type = MOMENTS[m.type];
  // Where the run's cards decide, authored answers only colour the reply.
  if (!type.traits.runSpecific) {
    for (const a of m.answers) out.push({ label: `answer '${a.id}'`, is: (d) => d.matched === a.id });
  }
  out.push(...(type.speech?.actions?.({ story, state, m, stage, pm: pm ?? null, team, stylish, momentName }) ?? []));
  return out;
}

/** A deterministic spread of a pattern's sentences: every option of every part turns up early, in varied company.
 *  Never one that names the same thing twice ("Idris Holt and Idris Holt"): no player says it, and a team of two
 *  has a sentence with two names. */
export function sampleSentences(p: SpeechPattern, limit: number): string[] {
  if (patternSize(p) <= limit) return expandChoices(p, limit).filter((c) => !twice(p, c)).map((c) => c.filter((o) => o !== undefined).join(' '));
  const out = new Set<string>();
  let seed = 0x9e3779b9;
  const rnd = (n: number): number => {
    seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return seed % n;
  };
  for (let i = 0; out.size < limit && i < limit * 4; i++) {
    const picks = p.parts.map((part) => part.options[rnd(part.options.length + (part.optional ? 1 : 0))]);
    if (!twice(p, picks)) out.add(picks.filter((o) => o !== undefined).join(' '));
  }
  return [...out];
}

/**
 * A pattern's sentences as a player would most likely say them, most natural first (up to `limit`): each part's plain
 * options first (names rather than aliases, in order), an optional part left out unless players usually say it
 * (`prefer`), a group's parts all said or none, never the same name twice nor a word said twice in a row ("the The
 * Bellows Knight"). A sentence's cost is the sum of its choices' ranks, so the first sentences vary one thing at a time.
 */
export function naturalSentences(p: SpeechPattern, limit: number): string[] {
  // Each part's choices, cheapest first: [option, cost]; undefined leaves an optional part out.
  const ranked = p.parts.map((part) => {
    const plain = part.plain ?? part.options;
    const opts = part.options.map((o, i) => [o, plain.includes(o) ? plain.indexOf(o) : plain.length + 10 + i] as const);
    const all: (readonly [string | undefined, number])[] = part.optional ? [[undefined, part.prefer ? 3 : 0], ...opts.map(([o, c]) => [o, c + (part.prefer ? 0 : 1)] as const)] : [...opts];
    return all.sort((a, b) => a[1] - b[1]);
  });
  const cost = (ranks: readonly number[]): number => ranks.reduce((n, r, i) => n + (ranked[i]?.[r]?.[1] ?? 0), 0);
  const out: string[] = [];
  const said = new Set<string>();
  const seen = new Set<string>();
  const start = p.parts.map(() => 0);
  const frontier: { ranks: number[]; cost: number }[] = [{ ranks: start, cost: cost(start) }];
  seen.add(start.join(','));
  // Best first (a linear scan: the frontier holds at most a few thousand choices).
  for (let steps = 0; frontier.length > 0 && out.length < limit && steps < limit * 20; steps++) {
    let best = 0;
    for (let k = 1; k < frontier.length; k++) if ((frontier[k]?.cost ?? 0) < (frontier[best]?.cost ?? 0)) best = k;
    const ranks = frontier[best]?.ranks ?? [];
    frontier.splice(best, 1);
    for (let i = 0; i < ranks.length; i++) {
      if ((ranks[i] ?? 0) + 1 >= (ranked[i]?.length ?? 0)) continue;
      const next = ranks.map((r, k) => (k === i ? r + 1 : r));
      const key = next.join(',');
      if (!seen.has(key)) {
        seen.add(key);
        frontier.push({ ranks: next, cost: cost(next) });
      }
    }
    const picks = ranks.map((r, i) => ranked[i]?.[r]?.[0]);
    if (twice(p, picks) || !grouped(p, picks)) continue;
    const words = picks.filter((o) => o !== undefined).join(' ').split(' ');
    if (words.some((w, i) => i > 0 && w.toLowerCase() === words[i - 1]?.toLowerCase())) continue;
    const text = words.join(' ');
    if (!said.has(text)) {
      said.add(text);
      out.push(text);
    }
  }
  return out;
}

/** Whether a choice names the same thing twice: the same option in two parts that offer several (names, items). */
function twice(p: SpeechPattern, picks: readonly (string | undefined)[]): boolean {
  const named = picks.filter((o, i) => o !== undefined && (p.parts[i]?.options.length ?? 0) > 1);
  return new Set(named).size < named.length;
}

/** Whether the parts of each group are all said or all left out. */
function grouped(p: SpeechPattern, picks: readonly (string | undefined)[]): boolean {
  const said = new Map<string, boolean>();
  for (const [i, part] of p.parts.entries()) {
    if (part.group === undefined) continue;
    const here = picks[i] !== undefined;
    if (said.has(part.group) && said.get(part.group) !== here) return false;
    said.set(part.group, here);
  }
  return true;
}

/** Every way to say a pattern (up to `limit`), as the option chosen for each part (undefined: an optional part left out). */
function expandChoices(p: SpeechPattern, limit: number): (string | undefined)[][] {
  let acc: (string | undefined)[][] = [[]];
  for (const part of p.parts) {
    const next: (string | undefined)[][] = [];
    for (const picks of acc) {
      if (part.optional) next.push([...picks, undefined]);
      for (const o of part.options) next.push([...picks, o]);
    }
    acc = next;
  }
  return acc.slice(0, limit);
}

/** Natural sentences tried per pattern before the spread. */
const NATURAL = 400;

export type Coverage = { action: string; sentence: string | null; authored: boolean };

/** Each accepted action with a sentence that says it (the story's own first), or null when none does. */
export function speakableCoverage(story: Story, state: GameState, language: PlayLanguage, opts: { sample?: number } = {}): Coverage[] {
  const actions = acceptedActions(story, state);
  const found = new Map<Action, { sentence: string; authored: boolean }>();
  const patterns = speakable(story, state, language);
  const ordered = [...patterns.filter((p) => p.authored), ...patterns.filter((p) => !p.authored)];
  for (const p of ordered) {
    if (found.size === actions.length) break;
    // The most natural sentences first (what lint-speech speaks), then a spread over the rest.
    for (const text of new Set([...naturalSentences(p, NATURAL), ...sampleSentences(p, opts.sample ?? 3000)])) {
      const d = decideTyped(story, state, text);
      for (const a of actions) if (!found.has(a) && a.is(d)) found.set(a, { sentence: text, authored: p.authored });
      if (found.size === actions.length) break;
    }
  }
  return actions.map((a) => ({ action: a.label, sentence: found.get(a)?.sentence ?? null, authored: found.get(a)?.authored ?? false }));
}
