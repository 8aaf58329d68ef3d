// Story checks on ids and references: duplicate ids, references to nothing, rewards and battles.
// Shared by validate.ts (the entry point) and validate-graph.ts: the problem type, the story view and paths.
import type { BlueprintCharacter, BlueprintItem, BlueprintMoment, BlueprintPlace, Story } from './format.js';
import { traitsOf } from '../moments/registry.js';
import { opponentsOf, rewardsOf, upgradeOf } from '../moments/fields.js';

export type Severity = 'error' | 'warning';
/** One thing wrong with a story. `path` is a JSON path into the file, e.g. `$.moments[3].transitions[0].next_moment_id`. */
export type Problem = { severity: Severity; path: string; code: string; message: string };

/**
 * The parts of a story that passed the schema. When the whole file passes it is the parsed story; otherwise each
 * moment, character, item, place and rank reward that passes on its own is kept, so one bad field does not hide the
 * other problems of the file.
 */
export type StoryView = {
  id: string | undefined;
  firstMomentId: string | undefined;
  characters: BlueprintCharacter[];
  items: BlueprintItem[];
  places: BlueprintPlace[];
  moments: BlueprintMoment[];
  rankRewards: Story['rank_rewards'];
  hasBattleVerbs: boolean;
  /** Index in the file of each kept top-level element (for paths). */
  index: Map<object, number>;
  /** Ids written in the file, including those of elements the schema rejected (no cascade of "points to nothing"). */
  declared: { moments: Set<string>; characters: Set<string>; items: Set<string>; places: Set<string> };
  /** Every moment passed the schema, so the moment graph is known in full. */
  complete: boolean;
};

export class Report {
  readonly problems: Problem[] = [];
  error(path: string, code: string, message: string): void {
    this.problems.push({ severity: 'error', path, code, message });
  }
  warn(path: string, code: string, message: string): void {
    this.problems.push({ severity: 'warning', path, code, message });
  }
}

export type ListName = 'moments' | 'characters' | 'items' | 'places' | 'rank_rewards';

/** The path of a kept top-level element, e.g. `$.moments[3]`. */
export function pathOf(v: StoryView, list: ListName, el: object): string {
  return `$.${list}[${v.index.get(el) ?? -1}]`;
}

export const quote = (s: string): string => JSON.stringify(s);
export const momentLabel = (m: BlueprintMoment): string => `moment ${quote(m.name.en)}`;

function duplicateIds(v: StoryView, r: Report): void {
  const seen = new Map<string, string>();
  const add = (id: string, path: string, what: string): void => {
    const first = seen.get(id);
    if (first === undefined) seen.set(id, what);
    else r.error(`${path}.id`, 'id/duplicate', `Id ${id} of ${what} is already used by ${first}; ids must be unique in the file.`);
  };
  if (v.id !== undefined) seen.set(v.id, 'the story');
  for (const c of v.characters) add(c.id, pathOf(v, 'characters', c), `character ${quote(c.name)}`);
  for (const i of v.items) add(i.id, pathOf(v, 'items', i), `item ${quote(i.name.en)}`);
  for (const p of v.places) add(p.id, pathOf(v, 'places', p), `place ${quote(p.name.en)}`);
  for (const m of v.moments) add(m.id, pathOf(v, 'moments', m), momentLabel(m));
  for (const m of v.moments) {
    const base = pathOf(v, 'moments', m);
    rewardsOf(m).forEach((rw, i) => {
      add(rw.id, `${base}.rewards[${i}]`, `reward ${i} of ${momentLabel(m)}`);
      rw.dynamic_rewards.forEach((d, j) => add(d.id, `${base}.rewards[${i}].dynamic_rewards[${j}]`, `dynamic reward ${quote(d.name.en)}`));
    });
    const answerIds = new Set<string>();
    m.answers.forEach((a, i) => {
      if (answerIds.has(a.id)) r.error(`${base}.answers[${i}].id`, 'id/duplicate', `${cap(momentLabel(m))} has two answers with id ${quote(a.id)}; only the first is ever used.`);
      answerIds.add(a.id);
    });
  }
}

const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

type Kind = 'moment' | 'character' | 'item' | 'place';
const SETS = { moment: 'moments', character: 'characters', item: 'items', place: 'places' } as const;

/** Reports `subject` when `id` names no element of that kind; true when it does. */
function ref(v: StoryView, r: Report, kind: Kind, path: string, id: string, subject: string): boolean {
  if (v.declared[SETS[kind]].has(id)) return true;
  r.error(path, `ref/unknown_${kind}`, `${subject} points to no ${kind}: ${id}.`);
  return false;
}

function momentRefs(v: StoryView, r: Report, m: BlueprintMoment): void {
  const base = pathOf(v, 'moments', m);
  const of = momentLabel(m);
  if (m.place_id) ref(v, r, 'place', `${base}.place_id`, m.place_id, `The place of ${of}`);
  if (m.character_id) ref(v, r, 'character', `${base}.character_id`, m.character_id, `The speaking character of ${of}`);
  m.transitions.forEach((t, i) => {
    ref(v, r, 'moment', `${base}.transitions[${i}].next_moment_id`, t.next_moment_id, `Transition ${i} of ${of}`);
  });
  if (m.skip_to_moment_id) ref(v, r, 'moment', `${base}.skip_to_moment_id`, m.skip_to_moment_id, `The skip target of ${of}`);
  const targets = new Set(m.transitions.map((t) => t.next_moment_id));
  m.answers.forEach((a, i) => {
    const next = a.next_moment_id;
    const path = `${base}.answers[${i}].next_moment_id`;
    if (next && ref(v, r, 'moment', path, next, `Answer ${quote(a.id)} of ${of}`) && !targets.has(next)) {
      const to = v.moments.find((x) => x.id === next);
      r.error(path, 'answer/next_not_transition', `Answer ${quote(a.id)} of ${of} goes to ${to ? momentLabel(to) : `moment ${next}`}, which is not one of the moment's transitions; add a transition to it.`);
    }
  });
  if (m.perfect_answer_item_id) {
    ref(v, r, 'item', `${base}.perfect_answer_item_id`, m.perfect_answer_item_id, `The perfect-answer item of ${of}`);
    if (m.score_threshold_for_award === undefined) {
      r.warn(`${base}.perfect_answer_item_id`, 'award/no_threshold', `${cap(of)} has a perfect-answer item but no score_threshold_for_award, so the item is never given.`);
    }
  }
  const prize = upgradeOf(m)?.reward_item_id;
  if (prize) ref(v, r, 'item', `${base}.upgrade.reward_item_id`, prize, `The upgrade reward item of ${of}`);
  rewardsOf(m).forEach((rw, i) => {
    const at = `${base}.rewards[${i}]`;
    rw.item_ids.forEach((id, j) => ref(v, r, 'item', `${at}.item_ids[${j}]`, id, `Reward ${i} of ${of}`));
    rw.character_ids.forEach((id, j) => ref(v, r, 'character', `${at}.character_ids[${j}]`, id, `Reward ${i} of ${of}`));
    const own = rw.reward_type === 'item' ? rw.item_ids : rw.reward_type === 'character' ? rw.character_ids : rw.dynamic_rewards;
    if (own.length === 0) {
      r.warn(at, 'reward/empty', `Reward ${i} of ${of} is of type ${rw.reward_type} but lists none, so accepting it gives nothing.`);
    }
  });
}

function battleRefs(v: StoryView, r: Report, m: BlueprintMoment): void {
  const base = pathOf(v, 'moments', m);
  const chars = new Map(v.characters.map((c) => [c.id, c]));
  opponentsOf(m).forEach((o, i) => {
    const at = `${base}.opponents[${i}]`;
    if (!ref(v, r, 'character', `${at}.character_id`, o.character_id, `Opponent ${i} of ${momentLabel(m)}`)) return;
    const c = chars.get(o.character_id);
    if (!c) return;
    if ((o.health ?? c.base_health) <= 0) {
      r.error(at, 'battle/opponent_no_health', `Opponent ${quote(c.name)} in ${momentLabel(m)} has no health (base_health 0 and no health override), so it starts burned out.`);
    }
    if (c.is_enrolled_by_default) {
      r.warn(`${at}.character_id`, 'battle/opponent_is_player', `Opponent ${quote(c.name)} in ${momentLabel(m)} is enrolled by default, so the player owns it too.`);
    }
  });
  if (traitsOf(m.type).fights && !v.hasBattleVerbs) {
    r.error(`${base}.type`, 'battle/no_battle_verbs', `${cap(momentLabel(m))} is a Battle, but the story has no battle_verbs, so no attack or defence can be recognised.`);
  }
}

/** Duplicate ids, references to nothing, rewards and battles. */
export function checkRefs(v: StoryView, r: Report): void {
  checkStoryRefs(v, r);
  for (const m of v.moments) checkMomentRefs(v, r, m);
}

/** Duplicate ids anywhere, and the references of the story itself (first moment, rank rewards). */
export function checkStoryRefs(v: StoryView, r: Report): void {
  duplicateIds(v, r);
  if (v.firstMomentId !== undefined) ref(v, r, 'moment', '$.first_moment_id', v.firstMomentId, 'first_moment_id');
  v.rankRewards.forEach((rr) => {
    ref(v, r, 'item', `${pathOf(v, 'rank_rewards', rr)}.item_id`, rr.item_id, `The rank ${rr.rank} reward`);
  });
}

/** One moment's references and battle checks: they read the moment, its position, the ids the story declares, the
 *  characters, whether the story has battle_verbs, and the names of the moments its answers go to. */
export function checkMomentRefs(v: StoryView, r: Report, m: BlueprintMoment): void {
  momentRefs(v, r, m);
  battleRefs(v, r, m);
}
