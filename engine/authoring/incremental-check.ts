// checkDraft (draft-check.ts) for a draft changed a little at a time: the same report, computed from what changed.
// Changes (apply.ts) never modify a draft: an entity they do not touch is the same object in the next draft, so the
// work done on each entity is kept by object identity: its schema parse, its size and text limits, its own checks
// and its missing translations are computed once per entity and reused while it is unchanged. A moment's reference
// checks run again when it changed or moved, or when what they read of the rest changed (the ids, names and graph
// fields of the moments, the characters, items or places, battle_verbs); duplicate ids and the story's own
// references run each time. The story-wide graph checks (reachability, the way to an Epilogue, team sizes) run
// again only when what they read changed: a moment's id, type, name, next moments, team size or rewarded
// characters, the characters, or first_moment_id. Anything this fast path does not cover (a
// part failing its schema, a file over its limits, one entity object twice) is checked by the full validator, so
// the result always equals checkDraft's (engine/authoring/incremental-check.property.test.ts).
import { z } from 'zod';
import { BlueprintCharacter, BlueprintItem, BlueprintMoment, BlueprintPlace, Story } from '../story/format.js';
import { STORY_JSON_LIMITS } from '../story/limits.js';
import { importanceKey, jsonPath, sortByImportance, translationsAt } from '../story/validate.js';
import { checkMomentAlone, checkStoryGraph, graphInputsOf } from '../story/validate-graph.js';
import { checkMomentRefs, checkStoryRefs, Report, type Problem, type StoryView } from '../story/validate-refs.js';
import { type DraftCheck, splitReport, checkDraft } from './draft-check.js';

type Json = Record<string, unknown>;
const isRecord = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);

const LISTS = { characters: BlueprintCharacter, items: BlueprintItem, places: BlueprintPlace, moments: BlueprintMoment } as const;
type ListName = keyof typeof LISTS;
const LIST_NAMES = Object.keys(LISTS) as ListName[];
const isList = (k: string): k is ListName => k in LISTS;

/** The story's own fields, its lists taken as lists of anything (each element is parsed with its own schema). */
const Shell = Story.extend({
  characters: z.array(z.unknown()),
  items: z.array(z.unknown()).default([]),
  places: z.array(z.unknown()).default([]),
  moments: z.array(z.unknown()).min(1),
});

/** What checkJson counts in a value: values, keys, the deepest container below it (-1: none), and any bad text. */
type Sizes = { values: number; keys: number; deepest: number; bad: boolean };

const BAD_TEXT = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** checkJson's counts for `value` (iterative, as checkJson: a hostile value cannot overflow the stack). */
function sizesOf(value: unknown): Sizes {
  const s: Sizes = { values: 0, keys: 0, deepest: -1, bad: false };
  const stack: { v: unknown; depth: number }[] = [{ v: value, depth: 0 }];
  while (stack.length > 0 && s.values <= STORY_JSON_LIMITS.maxValues) {
    const { v, depth } = stack.pop()!;
    s.values++;
    if (typeof v === 'string') {
      if (BAD_TEXT.test(v)) s.bad = true;
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    s.deepest = Math.max(s.deepest, depth);
    if (s.deepest > STORY_JSON_LIMITS.maxDepth) break;
    if (Array.isArray(v)) {
      for (const x of v) stack.push({ v: x, depth: depth + 1 });
      continue;
    }
    for (const [k, x] of Object.entries(v as Json)) {
      s.keys++;
      if (BAD_TEXT.test(k)) s.bad = true;
      stack.push({ v: x, depth: depth + 1 });
    }
  }
  return s;
}

const view0 = (list: readonly object[]): string[] => list.map((x) => (x as { id: string }).id);

type Parsed = { ok: true; data: object } | { ok: false };
type Placed = { index: number; problems: Problem[] };

/** A checker for one draft as it changes; check(doc) equals checkDraft(doc) for any doc. */
export class DraftChecker {
  readonly #parsed: Record<ListName, WeakMap<object, Parsed>> = {
    characters: new WeakMap(), items: new WeakMap(), places: new WeakMap(), moments: new WeakMap(),
  };
  readonly #sizes = new WeakMap<object, Sizes>();
  readonly #alone = new WeakMap<object, Placed>();
  readonly #i18n = new WeakMap<object, { relative: Problem[]; placed?: Placed }>();
  readonly #graphInputs = new WeakMap<object, string>();
  readonly #keys = new WeakMap<Problem, string>();
  readonly #refs = new WeakMap<object, Placed & { epoch: number }>();
  #graph: { first: string | undefined; characters: string; inputs: string[]; problems: Problem[] } | null = null;
  /** What the moments' reference checks read of the rest of the story, as last seen; `epoch` counts its changes. */
  #around: { inputs: string[]; lists: unknown[]; epoch: number } = { inputs: [], lists: [], epoch: 0 };

  /** How many checks took the fast path, and how many the full validator. */
  readonly stats = { fast: 0, full: 0 };

  check(doc: unknown): DraftCheck {
    const fast = this.#fast(doc);
    if (fast) {
      this.stats.fast++;
      return fast;
    }
    this.stats.full++;
    return checkDraft(doc);
  }

  /** The report from what changed, or null when the full validator must decide. */
  #fast(raw: unknown): DraftCheck | null {
    if (!isRecord(raw) || !this.#withinLimits(raw)) return null;
    const shell = Shell.safeParse(raw);
    if (!shell.success) return null;
    const index = new Map<object, number>();
    const lists = { characters: [] as object[], items: [] as object[], places: [] as object[], moments: [] as object[] };
    for (const name of LIST_NAMES) {
      const list = raw[name];
      if (!Array.isArray(list)) continue;
      for (const [i, el] of list.entries()) {
        const p = this.#parse(name, el);
        if (!p.ok || index.has(p.data)) return null;
        index.set(p.data, i);
        lists[name].push(p.data);
      }
    }
    const s = shell.data;
    s.rank_rewards.forEach((x, i) => index.set(x, i));
    const moments = lists.moments as BlueprintMoment[];
    const view: StoryView = {
      id: s.id, firstMomentId: s.first_moment_id, characters: lists.characters as BlueprintCharacter[], items: lists.items as BlueprintItem[],
      places: lists.places as BlueprintPlace[], moments, rankRewards: s.rank_rewards, hasBattleVerbs: s.battle_verbs !== undefined, index,
      declared: {
        moments: new Set(moments.map((m) => m.id)), characters: new Set(view0(lists.characters)), items: new Set(view0(lists.items)),
        places: new Set(view0(lists.places)),
      },
      complete: true,
    };
    const rawMoments = raw.moments as object[];
    const inputs = this.#inputs(view, rawMoments);
    const a = this.#around;
    const around = [raw.characters, raw.items, raw.places, view.hasBattleVerbs];
    const same = a.inputs.length === inputs.length && a.inputs.every((x, i) => x === inputs[i]) && a.lists.every((x, i) => x === around[i]);
    if (!same) this.#around = { inputs, lists: around, epoch: a.epoch + 1 };
    const r = new Report();
    checkStoryRefs(view, r);
    rawMoments.forEach((el, i) => r.problems.push(...this.#momentRefs(view, el, moments[i] as BlueprintMoment, i)));
    rawMoments.forEach((el, i) => r.problems.push(...this.#momentAlone(view, el, moments[i] as BlueprintMoment, i)));
    r.problems.push(...this.#storyGraph(view, inputs));
    this.#translations(raw, r.problems);
    return splitReport(sortByImportance(r.problems, (p) => this.#key(p)));
  }

  #parse(name: ListName, el: unknown): Parsed {
    if (!isRecord(el)) return { ok: false };
    const memo = this.#parsed[name];
    let p = memo.get(el);
    if (!p) {
      const r = (LISTS[name] as z.ZodType<object>).safeParse(el);
      p = r.success ? { ok: true, data: r.data } : { ok: false };
      memo.set(el, p);
    }
    return p;
  }

  /** checkJson finds nothing: totals within the limits, no container too deep, no bad text. */
  #withinLimits(raw: Json): boolean {
    const lim = STORY_JSON_LIMITS;
    let values = 1;
    let keys = 0;
    for (const [k, x] of Object.entries(raw)) {
      keys++;
      if (BAD_TEXT.test(k)) return false;
      const inList = isList(k) && Array.isArray(x);
      if (inList) values++;
      const parts: { v: unknown; depth: number }[] = inList ? (x as unknown[]).map((v) => ({ v, depth: 2 })) : [{ v: x, depth: 1 }];
      for (const { v, depth } of parts) {
        const s = this.#sizesAt(v, depth === 2);
        values += s.values;
        keys += s.keys;
        if (s.bad || (s.deepest >= 0 && depth + s.deepest + 1 > lim.maxDepth)) return false;
      }
      if (values > lim.maxValues || keys > lim.maxKeys) return false;
    }
    return true;
  }

  #sizesAt(v: unknown, keep: boolean): Sizes {
    if (!keep || typeof v !== 'object' || v === null) return sizesOf(v);
    let s = this.#sizes.get(v);
    if (!s) {
      s = sizesOf(v);
      this.#sizes.set(v, s);
    }
    return s;
  }

  /** checkMomentAlone's problems for the moment at `i` (kept while the moment and its position are unchanged). */
  #momentAlone(view: StoryView, el: object, m: BlueprintMoment, i: number): Problem[] {
    const had = this.#alone.get(el);
    if (had?.index === i) return had.problems;
    const r = new Report();
    checkMomentAlone(view, r, m);
    this.#alone.set(el, { index: i, problems: r.problems });
    return r.problems;
  }

  /** checkMomentRefs's problems for the moment at `i`, kept while it, its position and what it reads are unchanged. */
  #momentRefs(view: StoryView, el: object, m: BlueprintMoment, i: number): Problem[] {
    const epoch = this.#around.epoch;
    const had = this.#refs.get(el);
    if (had?.index === i && had.epoch === epoch) return had.problems;
    const r = new Report();
    checkMomentRefs(view, r, m);
    this.#refs.set(el, { index: i, epoch, problems: r.problems });
    return r.problems;
  }

  /** Each moment's graphInputsOf, as text, kept by identity. */
  #inputs(view: StoryView, rawMoments: readonly object[]): string[] {
    return rawMoments.map((el, i) => {
      let s = this.#graphInputs.get(el);
      if (s === undefined) {
        s = JSON.stringify(graphInputsOf(view.moments[i] as BlueprintMoment));
        this.#graphInputs.set(el, s);
      }
      return s;
    });
  }

  /** checkStoryGraph's problems, run again only when what it reads changed. */
  #storyGraph(view: StoryView, inputs: string[]): Problem[] {
    const characters = JSON.stringify(view.characters.map((c) => [c.id, c.is_enrolled_by_default]));
    const g = this.#graph;
    if (g && g.first === view.firstMomentId && g.characters === characters && g.inputs.length === inputs.length && g.inputs.every((s, i) => s === inputs[i])) {
      return g.problems;
    }
    const r = new Report();
    checkStoryGraph(view, r);
    this.#graph = { first: view.firstMomentId, characters, inputs, problems: r.problems };
    return r.problems;
  }

  /** The missing translations, walked as validateStory walks the file, each list element's kept by identity. */
  #translations(raw: Json, out: Problem[]): void {
    const r = new Report();
    for (const [k, x] of Object.entries(raw)) {
      if (!(isList(k) && Array.isArray(x))) {
        translationsAt(x, [k], r);
        continue;
      }
      out.push(...r.problems.splice(0));
      for (const [i, el] of (x as unknown[]).entries()) out.push(...this.#elementTranslations(el, k, i));
    }
    out.push(...r.problems);
  }

  #elementTranslations(el: unknown, list: string, i: number): Problem[] {
    if (!isRecord(el)) {
      const r = new Report();
      translationsAt(el, [list, i], r);
      return r.problems;
    }
    let memo = this.#i18n.get(el);
    if (!memo) {
      const r = new Report();
      translationsAt(el, [], r);
      memo = { relative: r.problems };
      this.#i18n.set(el, memo);
    }
    if (memo.placed?.index === i) return memo.placed.problems;
    const at = jsonPath([list, i]);
    const problems = memo.relative.map((p) => ({ ...p, path: at + p.path.slice(1) }));
    memo.placed = { index: i, problems };
    return problems;
  }

  #key(p: Problem): string {
    let k = this.#keys.get(p);
    if (k === undefined) {
      k = importanceKey(p);
      this.#keys.set(p, k);
    }
    return k;
  }
}
