// Story checks on the moment graph: moments that cannot end, unreachable moments, runs that never reach an
// Epilogue, skip rules that never show a moment, and Assembles asking for more characters than the story gives.
import { MOMENTS } from '../moments/registry.js';
import { skipTarget } from '../rules/auto-skip.js';
import type { BlueprintMoment } from './format.js';
import { momentLabel, pathOf, quote, type Report, type StoryView } from './validate-refs.js';
import { rewardsOf, teamSizeOf } from '../moments/fields.js';

const isFinal = (m: BlueprintMoment): boolean => MOMENTS[m.type].traits.final;
const enabled = (n: number | undefined): n is number => n !== undefined && n !== -1;

/** The moments a run can go to from `m`: transitions, answers' next moments and the skip target. */
export function nextMomentIds(m: BlueprintMoment): string[] {
  const ids = isFinal(m) ? [] : [...m.transitions.map((t) => t.next_moment_id), ...m.answers.flatMap((a) => (a.next_moment_id ? [a.next_moment_id] : []))];
  if (m.skip_to_moment_id) ids.push(m.skip_to_moment_id);
  return ids;
}

/** True when an answer of the moment can complete it: a 'complete' answer, or 'progress' answers with facts. */
function canCompleteByAnswer(m: BlueprintMoment): boolean {
  return m.answers.some((a) => a.outcome === 'complete' || (a.outcome === 'progress' && a.facts.length > 0));
}

function cannotEnd(v: StoryView, r: Report, m: BlueprintMoment): void {
  const at = pathOf(v, 'moments', m);
  const name = momentLabel(m);
  if (isFinal(m)) {
    if (m.transitions.length > 0) r.warn(`${at}.transitions`, 'moment/transitions_ignored', `${m.type} ${name} ends the run, so its transitions are never followed.`);
  } else if (m.transitions.length === 0) {
    r.error(`${at}.transitions`, 'moment/no_transition', `${m.type} ${name} has no transition: when it completes the run ends as lost. Add a transition (only Epilogue and Dead End moments end a run).`);
  }
  MOMENTS[m.type].check?.(m, { at, name, r, canCompleteByAnswer: canCompleteByAnswer(m) });
}

function skipRules(v: StoryView, r: Report, m: BlueprintMoment): void {
  const at = pathOf(v, 'moments', m);
  const name = momentLabel(m);
  const never = (field: string, why: string): void => r.warn(`${at}.${field}`, 'skip/never_shown', `${cap(name)} is never shown: ${why}.`);
  const skipAfter = m.skip_after_run_number;
  const showAfter = m.show_after_run_number;
  if (enabled(skipAfter) && skipAfter < 1) never('skip_after_run_number', `skip_after_run_number ${skipAfter} skips it from run 1 on`);
  else if (enabled(showAfter) && enabled(skipAfter) && showAfter > skipAfter) {
    never('show_after_run_number', `it is shown from run ${showAfter} on but skipped after run ${skipAfter}`);
  }
  if (m.display_randomly_probability === 0) never('display_randomly_probability', 'display_randomly_probability is 0');
  const skippable = enabled(skipAfter) || (enabled(showAfter) && showAfter > 1) || (m.skip_after_completion_count ?? 0) > 0
    || (enabled(m.display_randomly_probability) && m.display_randomly_probability < 100);
  if (isFinal(m) && skippable && skipTarget(m) === null) {
    r.warn(at, 'skip/no_target', `${m.type} ${name} can be skipped but has no skip_to_moment_id: a skipped ${m.type} ends the run as lost.`);
  }
}

const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** Moments reachable from `start` following `next`. */
function reach(start: readonly string[], next: (id: string) => readonly string[]): Set<string> {
  const seen = new Set<string>();
  const todo = [...start];
  for (let id = todo.pop(); id !== undefined; id = todo.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    todo.push(...next(id));
  }
  return seen;
}

function assembleSize(v: StoryView, r: Report, assembles: readonly BlueprintMoment[], givers: readonly BlueprintMoment[]): void {
  const known = new Set(v.characters.map((c) => c.id));
  const byDefault = v.characters.filter((c) => c.is_enrolled_by_default).map((c) => c.id);
  const rewarded = givers.flatMap((m) => rewardsOf(m).flatMap((rw) => rw.character_ids)).filter((id) => known.has(id) && !byDefault.includes(id));
  const most = new Set([...byDefault, ...rewarded]).size;
  for (const m of assembles) {
    const need = teamSizeOf(m) ?? 0;
    if (need > most) {
      r.warn(`${pathOf(v, 'moments', m)}.max_number_of_characters`, 'assemble/too_few_characters',
        `Assemble ${momentLabel(m)} needs ${need} characters, but the story can give at most ${most} (${byDefault.length} enrolled by default, ${new Set(rewarded).size} from rewards), so it is always skipped.`);
    }
  }
}

/** The checks of one moment that read nothing but the moment (and its path). */
export function checkMomentAlone(v: StoryView, r: Report, m: BlueprintMoment): void {
  cannotEnd(v, r, m);
  skipRules(v, r, m);
}

/** What the story-wide graph checks read of a moment besides its position: an incremental checker compares these to
 *  know whether the graph checks' result can have changed. */
export function graphInputsOf(m: BlueprintMoment): unknown[] {
  return [m.id, m.type, m.name.en, nextMomentIds(m), teamSizeOf(m), rewardsOf(m).map((rw) => rw.character_ids)];
}

/** Checks on each moment, then on the graph when it is known in full. */
export function checkGraph(v: StoryView, r: Report): void {
  for (const m of v.moments) checkMomentAlone(v, r, m);
  checkStoryGraph(v, r);
}

/** The story-wide checks: reachability, a way to an Epilogue, Assemble team sizes. They read each moment's
 *  graphInputsOf, the characters (ids, enrolled by default), the first moment and whether every moment parsed. */
export function checkStoryGraph(v: StoryView, r: Report): void {
  const byId = new Map(v.moments.map((m) => [m.id, m]));
  const first = v.firstMomentId !== undefined ? byId.get(v.firstMomentId) : undefined;
  const assembles = v.moments.filter((m) => MOMENTS[m.type].fields.some((f) => f.key === 'max_number_of_characters') && teamSizeOf(m) !== undefined);
  if (!v.complete || !first) {
    assembleSize(v, r, assembles, v.moments);
    return;
  }
  const next = (id: string): string[] => {
    const m = byId.get(id);
    return m ? nextMomentIds(m).filter((n) => byId.has(n)) : [];
  };
  const reachable = reach([first.id], next);
  const kept = v.moments.filter((m) => reachable.has(m.id));
  assembleSize(v, r, assembles.filter((m) => reachable.has(m.id)), kept);
  for (const m of v.moments) {
    if (!reachable.has(m.id)) {
      r.error(pathOf(v, 'moments', m), 'moment/unreachable', `${cap(momentLabel(m))} is unreachable: no transition, skip target or answer leads to it from the first moment.`);
    }
  }
  const previous = new Map<string, string[]>();
  for (const m of v.moments) for (const n of nextMomentIds(m)) previous.set(n, [...(previous.get(n) ?? []), m.id]);
  const epilogues = v.moments.filter((m) => MOMENTS[m.type].traits.ends === 'won').map((m) => m.id);
  const toEpilogue = reach(epilogues, (id) => previous.get(id) ?? []);
  if (!toEpilogue.has(first.id)) {
    r.error('$.first_moment_id', 'story/no_epilogue', epilogues.length === 0
      ? 'The story has no Epilogue, so no run can ever be won.'
      : `No path leads from the first moment ${quote(first.name.en)} to an Epilogue, so no run can ever be won.`);
  }
  for (const m of kept) {
    if (!isFinal(m) && !toEpilogue.has(m.id)) {
      r.warn(pathOf(v, 'moments', m), 'moment/no_epilogue', `No Epilogue can be reached from ${momentLabel(m)}: every run that gets there is lost.`);
    }
  }
}
