// Which decisions the engine accepts at the current stage of a moment, and whether a player can say each of them:
// for every action (an answer, a branch, a reward, an item on a character, a team member, an attack by each fighter on
// each foe, plain or in the fighter's style, a defence, a bet, a riddle answer) look for a sentence among what is
// speakable here (speakable.ts) that the scripted brain, typed, reads as that action. `looptale story lint-speech`
// fails a story where an action has none.
import type { PlayLanguage } from '../schema/enums.js';
import { currentMoment, type GameState } from '../run/state.js';
import type { Story } from '../story/format.js';
import type { Decision } from './decision.js';
import { decideTyped, patternSize, speakable, stageOf, type SpeechPattern } from './speakable.js';

export type Action = { label: string; is(d: Decision): boolean };

/** The actions the engine accepts now. */
export function acceptedActions(story: Story, state: GameState): Action[] {
  const { moment: m, stage } = stageOf(story, state);
  if (!m) return [];
  const out: Action[] = [];
  const pm = currentMoment(state);
  const momentName = (id: string): string => story.moments.find((x) => x.id === id)?.name.en ?? id;
  const team = state.characters.filter((c) => c.is_selected_in_assemble && c.current_health > 0);
  const stylish = (blueprintId: string | null): boolean => {
    const tags = story.characters.find((c) => c.id === blueprintId)?.style_tags ?? [];
    return (story.battle_verbs?.styles ?? []).some((s) => tags.includes(s.tag));
  };
  if (m.type !== 'Battle' && m.type !== 'Upgrade' && m.type !== 'Equip' && m.type !== 'Assemble') {
    for (const a of m.answers) out.push({ label: `answer '${a.id}'`, is: (d) => d.matched === a.id });
  }
  if (m.type === 'Crossroad') {
    for (const t of m.transitions) {
      if (!t.match && !t.label) continue;
      out.push({ label: `branch to ${momentName(t.next_moment_id)}`, is: (d) => d.next_moment_id === t.next_moment_id });
    }
  }
  switch (m.type) {
    case 'Reward':
      for (const r of m.rewards) {
        const ids = r.reward_type === 'item' ? r.item_ids : r.reward_type === 'character' ? r.character_ids : r.dynamic_rewards.map((x) => x.id);
        for (const id of ids) {
          const owned = r.reward_type === 'item' ? state.items.some((i) => i.blueprint_item_id === id)
            : r.reward_type === 'character' ? state.characters.some((c) => c.blueprint_character_id === id) : false;
          if (owned) continue;
          const name = r.reward_type === 'item' ? story.items.find((i) => i.id === id)?.name.en : r.reward_type === 'character' ? story.characters.find((c) => c.id === id)?.name : r.dynamic_rewards.find((x) => x.id === id)?.name.en;
          out.push({ label: `reward ${name ?? id}`, is: (d) => d.award?.id === id });
        }
      }
      break;
    case 'Equip':
      for (const it of state.items) {
        for (const c of state.characters.filter((x) => x.is_selected_in_assemble)) {
          out.push({ label: `equip ${it.name} on ${c.name}`, is: (d) => d.equip?.item_id === it.id && d.equip.character_id === c.id });
        }
      }
      break;
    case 'Assemble':
      for (const c of state.characters.filter((x) => x.current_health > 0)) out.push({ label: `team member ${c.name}`, is: (d) => d.selection?.includes(c.id) === true });
      break;
    case 'Battle':
      if (stage === 'defend') {
        const struck = state.characters.find((c) => c.id === pm?.pending_strike?.target_id);
        out.push({ label: `defence by ${struck?.name ?? '?'}`, is: (d) => d.battle?.kind === 'defend' && !d.battle.thematic });
        if (struck && stylish(struck.blueprint_character_id)) out.push({ label: `defence by ${struck.name} in style`, is: (d) => d.battle?.kind === 'defend' && d.battle.thematic });
      } else {
        const foes = state.opponents.filter((o) => o.player_moment_id === pm?.id && o.current_health > 0);
        for (const a of team) {
          for (const f of foes) {
            out.push({ label: `attack by ${a.name} on ${f.name}`, is: (d) => d.battle?.kind === 'attack' && d.battle.actor_id === a.id && d.battle.target_id === f.id && !d.battle.thematic });
            if (stylish(a.blueprint_character_id)) out.push({ label: `attack by ${a.name} on ${f.name} in style`, is: (d) => d.battle?.kind === 'attack' && d.battle.actor_id === a.id && d.battle.target_id === f.id && d.battle.thematic });
          }
        }
      }
      break;
    case 'Upgrade': {
      const rules = m.upgrade;
      if (!rules) break;
      if (stage === 'riddle') {
        out.push({ label: 'riddle answered right', is: (d) => d.upgrade?.stage === 'answer' && d.upgrade.correct });
        out.push({ label: 'riddle answered wrong', is: (d) => d.upgrade?.stage === 'answer' && !d.upgrade.correct });
      } else {
        for (const c of team) {
          for (const lvl of rules.difficulties) {
            for (let b = rules.min_bet; b <= rules.max_bet; b++) {
              out.push({ label: `bet ${b} on ${c.name}, ${lvl.level}`, is: (d) => d.upgrade?.stage === 'bet' && d.upgrade.character_id === c.id && d.upgrade.level === lvl.level && d.upgrade.bet === b });
            }
          }
        }
      }
      break;
    }
    case 'Learn': case 'Test': case 'Crossroad': case 'Teamwork': case 'Monologue': case 'Epilogue': case 'Dead End':
      break;
  }
  return out;
}

/** A deterministic spread of a pattern's sentences: every option of every part turns up early, in varied company.
 *  Never one that names the same thing twice ("Idris Holt and Idris Holt"): no player says it, and a team of two
 *  has a sentence with two names. */
export function sampleSentences(p: SpeechPattern, limit: number): string[] {
  // Choices of parts that offer several (names, items), not the fixed small words ("and").
  const twice = (picks: readonly (string | undefined)[]): boolean => {
    const named = picks.filter((o, i) => o !== undefined && (p.parts[i]?.options.length ?? 0) > 1);
    return new Set(named).size < named.length;
  };
  if (patternSize(p) <= limit) return expandChoices(p, limit).filter((c) => !twice(c)).map((c) => c.filter((o) => o !== undefined).join(' '));
  const out = new Set<string>();
  let seed = 0x9e3779b9;
  const rnd = (n: number): number => {
    seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return seed % n;
  };
  for (let i = 0; out.size < limit && i < limit * 4; i++) {
    const picks = p.parts.map((part) => part.options[rnd(part.options.length + (part.optional ? 1 : 0))]);
    if (!twice(picks)) out.add(picks.filter((o) => o !== undefined).join(' '));
  }
  return [...out];
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

export type Coverage = { action: string; sentence: string | null; authored: boolean };

/** Each accepted action with a sentence that says it (the story's own first), or null when none does. */
export function speakableCoverage(story: Story, state: GameState, language: PlayLanguage, opts: { sample?: number } = {}): Coverage[] {
  const actions = acceptedActions(story, state);
  const found = new Map<Action, { sentence: string; authored: boolean }>();
  const patterns = speakable(story, state, language);
  const ordered = [...patterns.filter((p) => p.authored), ...patterns.filter((p) => !p.authored)];
  for (const p of ordered) {
    if (found.size === actions.length) break;
    for (const text of sampleSentences(p, opts.sample ?? 3000)) {
      const d = decideTyped(story, state, text);
      for (const a of actions) if (!found.has(a) && a.is(d)) found.set(a, { sentence: text, authored: p.authored });
      if (found.size === actions.length) break;
    }
  }
  return actions.map((a) => ({ action: a.label, sentence: found.get(a)?.sentence ?? null, authored: found.get(a)?.authored ?? false }));
}
