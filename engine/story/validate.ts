// `validateStory`: every problem of a story file at once. Schema errors come from the zod `Story` schema; the
// story checks (validate-refs.ts, validate-graph.ts) run on whatever parts of the file pass the schema, so a typo in
// one character does not hide a broken transition elsewhere. Pure: the caller reads the file.
import type { z } from 'zod';
import { UUID_V4_RE, UuidV4 } from '../schema/ids.js';
import { BlueprintCharacter, BlueprintItem, BlueprintMoment, BlueprintPlace, Story } from './format.js';
import { storyJsonProblem } from './limits.js';
import { checkGraph } from './validate-graph.js';
import { checkRefs, Report, type Problem, type StoryView } from './validate-refs.js';

export type { Problem, Severity } from './validate-refs.js';

/** `ok`: no errors (warnings allowed). `story`: the parsed story whenever the schema passes. */
export type StoryValidation = { ok: boolean; story?: Story; problems: Problem[] };

type Key = PropertyKey;

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `['moments', 3, 'id']` -> `$.moments[3].id` */
export function jsonPath(segments: readonly Key[]): string {
  return segments.reduce<string>((p, s) => {
    if (typeof s === 'number') return `${p}[${s}]`;
    const k = String(s);
    return IDENT.test(k) ? `${p}.${k}` : `${p}[${JSON.stringify(k)}]`;
  }, '$');
}

function valueAt(raw: unknown, segments: readonly Key[]): unknown {
  let x = raw;
  for (const s of segments) {
    if (Array.isArray(x) && typeof s === 'number') x = x[s];
    else if (isRecord(x) && typeof s === 'string') x = x[s];
    else return undefined;
  }
  return x;
}

const shown = (x: unknown): string => {
  const s = JSON.stringify(x) ?? String(x);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
};
const kindOf = (x: unknown): string => (x === null ? 'null' : Array.isArray(x) ? 'array' : typeof x);
const listOf = (values: readonly unknown[]): string => values.map((x) => JSON.stringify(x)).join(', ');

/** A moment's field that only other moment types have: which types have it, or null for a field no type has. */
function foreignField(path: readonly Key[], moment: unknown, key: string): string | null {
  if (path.length !== 2 || path[0] !== 'moments' || !isRecord(moment) || typeof moment.type !== 'string') return null;
  const owners = BlueprintMoment.options.filter((o) => key in o.shape).map((o) => o.shape.type.value);
  if (owners.length === 0) return null;
  return `Unknown field ${JSON.stringify(key)} for a ${moment.type} moment: only ${owners.join(' and ')} moments have it.`;
}

function schemaProblem(issue: z.core.$ZodIssue, raw: unknown): Problem[] {
  const path = issue.path;
  const input = valueAt(raw, path);
  const field = String(path[path.length - 1] ?? 'story');
  const at = jsonPath(path);
  const error = (code: string, message: string): Problem[] => [{ severity: 'error', path: at, code, message }];
  switch (issue.code) {
    case 'invalid_type':
      return input === undefined
        ? error('schema/missing_field', `Missing required field ${JSON.stringify(field)} (${issue.expected}).`)
        : error('schema/invalid_type', `${JSON.stringify(field)} must be ${issue.expected === 'object' || issue.expected === 'array' ? 'an' : 'a'} ${issue.expected}, not ${kindOf(input)} ${shown(input)}.`);
    case 'unrecognized_keys':
      return issue.keys.map((k) => ({
        severity: 'error', path: jsonPath([...path, k]), code: 'schema/unknown_field',
        message: foreignField(path, input, k) ?? `Unknown field ${JSON.stringify(k)}: the story format has no such field (a typo?).`,
      }));
    case 'invalid_value':
      return error('schema/invalid_value', `${JSON.stringify(field)} must be one of ${listOf(issue.values)}, not ${shown(input)}.`);
    case 'invalid_union': {
      // A moment's `type` names none of the union's members: the members' types are the values it may take.
      const values = 'options' in issue && issue.options ? issue.options : issue.errors.flat().flatMap((e) => (e.code === 'invalid_value' ? e.values : []));
      return values.length > 0
        ? error('schema/invalid_value', `${JSON.stringify(field)} must be one of ${listOf(values)}, not ${shown(input)}.`)
        : error('schema/invalid_union', `${JSON.stringify(field)}: ${issue.message}.`);
    }
    case 'invalid_format':
      return issue.format === 'regex' && issue.pattern === String(UUID_V4_RE)
        ? error('id/not_uuid_v4', `${shown(input)} is not a version-4 UUID (ids look like 3f2a9c1e-7b4d-4e8a-9c2f-1a2b3c4d5e6f).`)
        : error('schema/invalid_format', `${JSON.stringify(field)}: ${issue.message}.`);
    case 'too_small':
      return error('schema/too_small', issue.origin === 'array'
        ? `${JSON.stringify(field)} needs at least ${issue.minimum} entr${issue.minimum === 1 ? 'y' : 'ies'}.`
        : issue.origin === 'string' ? `${JSON.stringify(field)} must not be empty.` : `${JSON.stringify(field)} must be at least ${issue.minimum}, not ${shown(input)}.`);
    case 'too_big':
      return error('schema/too_big', `${JSON.stringify(field)} must be at most ${issue.maximum}, not ${shown(input)}.`);
    case 'custom': case 'invalid_element': case 'invalid_key': case 'not_multiple_of':
      return error(`schema/${issue.code}`, `${JSON.stringify(field)}: ${issue.message}.`);
  }
}

/** Each element of `list` that passes `schema` on its own, remembering its index in the file. */
function keep<T extends object>(schema: z.ZodType<T>, list: unknown, index: Map<object, number>): T[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((x, i) => {
    const r = schema.safeParse(x);
    if (!r.success) return [];
    index.set(r.data, i);
    return [r.data];
  });
}

const idsIn = (list: unknown): Set<string> =>
  new Set(Array.isArray(list) ? list.flatMap((x) => (isRecord(x) && typeof x.id === 'string' ? [x.id] : [])) : []);

function viewOf(raw: unknown, story: Story | undefined): StoryView | null {
  const index = new Map<object, number>();
  if (story) {
    for (const list of [story.characters, story.items, story.places, story.moments, story.rank_rewards]) list.forEach((x, i) => index.set(x, i));
    return {
      id: story.id, firstMomentId: story.first_moment_id, characters: story.characters, items: story.items, places: story.places,
      moments: story.moments, rankRewards: story.rank_rewards, hasBattleVerbs: story.battle_verbs !== undefined, index,
      declared: { moments: idsIn(story.moments), characters: idsIn(story.characters), items: idsIn(story.items), places: idsIn(story.places) },
      complete: true,
    };
  }
  if (!isRecord(raw)) return null;
  const moments = keep(BlueprintMoment, raw.moments, index);
  return {
    id: UuidV4.safeParse(raw.id).data,
    firstMomentId: UuidV4.safeParse(raw.first_moment_id).data,
    characters: keep(BlueprintCharacter, raw.characters, index),
    items: keep(BlueprintItem, raw.items, index),
    places: keep(BlueprintPlace, raw.places, index),
    moments,
    rankRewards: keep(Story.shape.rank_rewards.unwrap().element, raw.rank_rewards, index),
    hasBattleVerbs: raw.battle_verbs !== undefined,
    index,
    declared: { moments: idsIn(raw.moments), characters: idsIn(raw.characters), items: idsIn(raw.items), places: idsIn(raw.places) },
    complete: Array.isArray(raw.moments) && moments.length === raw.moments.length,
  };
}

/** Every Text without `fr` and every Phrases without a French list, found by shape anywhere in the file. */
function translations(raw: unknown, r: Report): void {
  translationsAt(raw, [], r);
}

/** translations() of a part of the file found at `root` (paths start at `root`). */
export function translationsAt(raw: unknown, root: Key[], r: Report): void {
  const walk = (x: unknown, path: Key[]): void => {
    if (Array.isArray(x)) return x.forEach((y, i) => walk(y, [...path, i]));
    if (!isRecord(x)) return;
    if (typeof x.en === 'string' && x.fr === undefined) {
      r.warn(jsonPath(path), 'i18n/missing_fr', `Text ${shown(x.en)} has no French translation (fr).`);
    } else if (Array.isArray(x.en) && (x.fr === undefined || (Array.isArray(x.fr) && x.fr.length === 0))) {
      r.warn(jsonPath(path), 'i18n/missing_fr', `Phrases ${shown(x.en)} have no French phrases (fr), so a French player is matched against the English ones.`);
    }
    for (const [k, y] of Object.entries(x)) walk(y, [...path, k]);
  };
  walk(raw, root);
}

/** The order of a report: errors first, then by path with array indices in numeric order. */
export function importanceKey(p: Problem): string {
  return `${p.severity === 'error' ? 0 : 1}${p.path.replace(/\[(\d+)\]/g, (_, n: string) => `[${n.padStart(6, '0')}]`)}`;
}

/** Sorts problems by importanceKey (stable: problems with the same key keep their order); `key` may be memoised. */
export function sortByImportance(problems: Problem[], key: (p: Problem) => string = importanceKey): Problem[] {
  const keyed = problems.map((p, i) => ({ p, k: key(p), i }));
  keyed.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : a.i - b.i));
  return keyed.map((x) => x.p);
}

/** Validates a parsed JSON value as a story and reports every problem found, not just the first. */
export function validateStory(raw: unknown): StoryValidation {
  // A file too deep or too wide for a story is refused before anything walks it (the walks below recurse).
  const limit = storyJsonProblem(raw);
  if (limit) return { ok: false, problems: [limit] };
  const parsed = Story.safeParse(raw);
  const r = new Report();
  if (!parsed.success) for (const issue of parsed.error.issues) r.problems.push(...schemaProblem(issue, raw));
  const view = viewOf(raw, parsed.data);
  if (view) {
    checkRefs(view, r);
    checkGraph(view, r);
  }
  translations(raw, r);
  const problems = sortByImportance(r.problems);
  return { ok: !problems.some((p) => p.severity === 'error'), ...(parsed.success ? { story: parsed.data } : {}), problems };
}
