// What the flow graph draws and edits, from the draft document alone: one node per moment (its type's drawing from the
// registry, its problems, first and ending marks), one edge per transition and a dashed one per skip, and the changes
// for each graph edit (connect, reconnect, delete with everything that pointed at the moment, move, add). Pure: the
// page turns these into xyflow nodes and useDraft().apply calls.
import type { Change } from '../../../../engine/authoring/change.js';
import type { Json } from '../../../../engine/authoring/apply.js';
import { MOMENTS } from '../../../../engine/moments/registry.js';
import type { MomentModule } from '../../../../engine/moments/types.js';
import type { Problem } from '../../../../engine/story/validate.js';
import type { Point } from './auto-layout.js';

const isRecord = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The moments of a draft, as they are in the file. */
export function momentsOf(doc: Json): Json[] {
  return Array.isArray(doc.moments) ? doc.moments.filter(isRecord) : [];
}

/** A moment type's module, or null for a type the registry does not know (a draft can hold one while being fixed). */
export function moduleOf(type: unknown): MomentModule | null {
  return typeof type === 'string' ? ((MOMENTS as Record<string, MomentModule | undefined>)[type] ?? null) : null;
}

/** The English of a Text (or a plain string). */
export function english(t: unknown): string {
  if (typeof t === 'string') return t;
  return isRecord(t) && typeof t.en === 'string' ? t.en : '';
}

export type NodeInfo = {
  id: string;
  name: string;
  type: string;
  /** The type's label and fill (module.graph). */
  label: string;
  fill: string | null;
  first: boolean;
  /** How the run ends here: 'won', 'lost', 'ends' (final without a result), or null. */
  ending: 'won' | 'lost' | 'ends' | null;
  errors: number;
  warnings: number;
  /** The first problem's message, for the badge's title. */
  problem: string | null;
  position: Point | null;
};

/** A link between moments: a transition (index in the list), a skip, or an answer that leads on (index in answers). */
export type EdgeInfo = { id: string; source: string; target: string; kind: 'transition' | 'skip' | 'answer'; index: number; label: string };

export function positionOf(m: Json): Point | null {
  const p = m.position;
  return isRecord(p) && typeof p.x === 'number' && typeof p.y === 'number' ? { x: p.x, y: p.y } : null;
}

/** Problems per moment id: a path `$.moments[3]...` belongs to the moment at index 3. */
export function problemsByMoment(doc: Json, problems: readonly Problem[]): Map<string, Problem[]> {
  const moments = momentsOf(doc);
  const out = new Map<string, Problem[]>();
  for (const p of problems) {
    const m = /^\$\.moments\[(\d+)\]/.exec(p.path);
    if (!m) continue;
    const id = moments[Number(m[1])]?.id;
    if (typeof id !== 'string') continue;
    const list = out.get(id);
    if (list) list.push(p);
    else out.set(id, [p]);
  }
  return out;
}

/** One node per moment, in list order. */
export function nodeInfos(doc: Json, problems: readonly Problem[]): NodeInfo[] {
  const byMoment = problemsByMoment(doc, problems);
  return momentsOf(doc).filter((m) => typeof m.id === 'string').map((m) => {
    const id = m.id as string;
    const mod = moduleOf(m.type);
    const list = byMoment.get(id) ?? [];
    const errors = list.filter((p) => p.severity === 'error').length;
    const final = mod?.traits.final ?? false;
    return {
      id,
      name: english(m.name) || '(no name)',
      type: String(m.type),
      label: mod?.graph.label ?? String(m.type),
      fill: mod?.graph.fill ?? null,
      first: doc.first_moment_id === id,
      ending: mod?.traits.ends ?? (final ? 'ends' : null),
      errors,
      warnings: list.length - errors,
      problem: (list.find((p) => p.severity === 'error') ?? list[0])?.message ?? null,
      position: positionOf(m),
    };
  });
}

/** Transitions, skips and answers leading on, between moments that exist (a dangling one is the validator's). */
export function edgeInfos(doc: Json): EdgeInfo[] {
  const moments = momentsOf(doc);
  const ids = new Set(moments.map((m) => m.id));
  const out: EdgeInfo[] = [];
  for (const m of moments) {
    const source = m.id as string;
    const transitions = Array.isArray(m.transitions) ? m.transitions : [];
    transitions.forEach((t, index) => {
      if (isRecord(t) && typeof t.next_moment_id === 'string' && ids.has(t.next_moment_id)) {
        out.push({ id: `${source}>${index}`, source, target: t.next_moment_id, kind: 'transition', index, label: english(t.label) });
      }
    });
    const answers = Array.isArray(m.answers) ? m.answers : [];
    answers.forEach((a, index) => {
      if (isRecord(a) && typeof a.next_moment_id === 'string' && ids.has(a.next_moment_id)) {
        out.push({ id: `${source}!${index}`, source, target: a.next_moment_id, kind: 'answer', index, label: typeof a.id === 'string' ? a.id : '' });
      }
    });
    if (typeof m.skip_to_moment_id === 'string' && ids.has(m.skip_to_moment_id)) {
      out.push({ id: `${source}~skip`, source, target: m.skip_to_moment_id, kind: 'skip', index: -1, label: 'skip' });
    }
  }
  return out;
}

const momentById = (doc: Json, id: string): Json | null => momentsOf(doc).find((m) => m.id === id) ?? null;
const transitionsOf = (m: Json): unknown[] => (Array.isArray(m.transitions) ? m.transitions : []);

/** Connect: a new transition from `source` to `target`, after the source's others. */
export function connectChanges(doc: Json, source: string, target: string): Change[] {
  const m = momentById(doc, source);
  if (!m) return [];
  return [{ op: 'set', path: ['moments', source, 'transitions'], value: [...transitionsOf(m), { next_moment_id: target }] }];
}

/** Reconnect: an edge moved to another target (the same source) or another source (moved with its label). */
export function reconnectChanges(doc: Json, edge: EdgeInfo, source: string, target: string): Change[] {
  if (edge.kind === 'answer') return source === edge.source ? answerChanges(doc, edge, target) : [];
  if (edge.kind === 'skip') {
    if (source !== edge.source) {
      return [{ op: 'set', path: ['moments', edge.source, 'skip_to_moment_id'] }, { op: 'set', path: ['moments', source, 'skip_to_moment_id'], value: target }];
    }
    return [{ op: 'set', path: ['moments', source, 'skip_to_moment_id'], value: target }];
  }
  const from = momentById(doc, edge.source);
  if (!from) return [];
  const old = transitionsOf(from);
  const moved = { ...(isRecord(old[edge.index]) ? old[edge.index] as Json : {}), next_moment_id: target };
  if (source === edge.source) {
    return [{ op: 'set', path: ['moments', source, 'transitions'], value: old.map((t, i) => (i === edge.index ? moved : t)) }];
  }
  const to = momentById(doc, source);
  if (!to) return [];
  return [
    { op: 'set', path: ['moments', edge.source, 'transitions'], value: old.filter((_, i) => i !== edge.index) },
    { op: 'set', path: ['moments', source, 'transitions'], value: [...transitionsOf(to), moved] },
  ];
}

/** An answer leading elsewhere (`target`), or nowhere (null: it completes the moment and the transitions follow). */
function answerChanges(doc: Json, edge: EdgeInfo, target: string | null): Change[] {
  const m = momentById(doc, edge.source);
  const answers: unknown[] = m && Array.isArray(m.answers) ? m.answers : [];
  const value = answers.map((a, i) => {
    if (i !== edge.index || !isRecord(a)) return a;
    const { next_moment_id: _old, ...rest } = a;
    return target === null ? rest : { ...rest, next_moment_id: target };
  });
  return m ? [{ op: 'set', path: ['moments', edge.source, 'answers'], value }] : [];
}

/** Removes one edge. */
export function removeEdgeChanges(doc: Json, edge: EdgeInfo): Change[] {
  if (edge.kind === 'answer') return answerChanges(doc, edge, null);
  if (edge.kind === 'skip') return [{ op: 'set', path: ['moments', edge.source, 'skip_to_moment_id'] }];
  const m = momentById(doc, edge.source);
  if (!m) return [];
  return [{ op: 'set', path: ['moments', edge.source, 'transitions'], value: transitionsOf(m).filter((_, i) => i !== edge.index) }];
}

/** Moves: one change per moved moment. */
export function moveChanges(moves: readonly { id: string; position: Point }[]): Change[] {
  return moves.map(({ id, position }) => ({ op: 'set', path: ['moments', id, 'position'], value: { x: Math.round(position.x), y: Math.round(position.y) } }));
}

/** What deleting a moment breaks, in words for the author, and the changes that delete it with those references. */
export type DeleteImpact = { breaks: string[]; changes: Change[]; refused: string | null };

export function deleteImpact(doc: Json, id: string): DeleteImpact {
  const moments = momentsOf(doc);
  const gone = moments.find((m) => m.id === id);
  if (!gone) return { breaks: [], changes: [], refused: 'This moment is no longer in the story.' };
  if (moments.length === 1) return { breaks: [], changes: [], refused: 'A story needs at least one moment: add another before deleting this one.' };
  const breaks: string[] = [];
  const changes: Change[] = [];
  const nameOf = (m: Json): string => `"${english(m.name) || String(m.id)}"`;
  for (const m of moments) {
    if (m.id === id) continue;
    const mid = m.id as string;
    const ts = transitionsOf(m);
    const kept = ts.filter((t) => !(isRecord(t) && t.next_moment_id === id));
    if (kept.length !== ts.length) {
      const n = ts.length - kept.length;
      breaks.push(`${n === 1 ? 'The transition' : `${n} transitions`} from ${nameOf(m)} to it will be removed.`);
      changes.push({ op: 'set', path: ['moments', mid, 'transitions'], value: kept });
    }
    if (m.skip_to_moment_id === id) {
      breaks.push(`${nameOf(m)} will no longer skip to it.`);
      changes.push({ op: 'set', path: ['moments', mid, 'skip_to_moment_id'] });
    }
    const answers: unknown[] = Array.isArray(m.answers) ? m.answers : [];
    if (answers.some((a) => isRecord(a) && a.next_moment_id === id)) {
      const n = answers.filter((a) => isRecord(a) && a.next_moment_id === id).length;
      breaks.push(`${n === 1 ? 'An answer' : `${n} answers`} of ${nameOf(m)} will no longer lead to it.`);
      changes.push({ op: 'set', path: ['moments', mid, 'answers'], value: answers.map((a) => {
        if (!isRecord(a) || a.next_moment_id !== id) return a;
        const { next_moment_id: _dropped, ...rest } = a;
        return rest;
      }) });
    }
  }
  if (doc.first_moment_id === id) {
    // The story must start somewhere: where this moment led, else the first other moment in the list.
    const next = transitionsOf(gone).map((t) => (isRecord(t) ? t.next_moment_id : null)).find((t) => typeof t === 'string' && t !== id && moments.some((m) => m.id === t));
    const heir = (typeof next === 'string' ? momentById(doc, next) : null) ?? moments.find((m) => m.id !== id) as Json;
    breaks.push(`The story starts here: it will start at ${nameOf(heir)} instead.`);
    changes.push({ op: 'set', path: ['first_moment_id'], value: heir.id });
  }
  changes.push({ op: 'remove', collection: 'moments', id });
  return { breaks, changes, refused: null };
}

/** A new moment of a type, valid as it is (the form then fills it in): a fresh id, a name, the story's date, one
 *  opening line, and where it is drawn. */
export function newMoment(doc: Json, mod: MomentModule, id: string, position: Point): Json {
  const date = momentsOf(doc).map((m) => m.date).find((d) => typeof d === 'string') ?? '2024-01-01';
  return {
    id,
    name: { en: `New ${mod.graph.label}`, fr: `Nouveau : ${mod.graph.label}` },
    date,
    type: mod.type,
    opening: [{ en: 'The opening line.', fr: 'La première réplique.' }],
    position: { x: Math.round(position.x), y: Math.round(position.y) },
  };
}
