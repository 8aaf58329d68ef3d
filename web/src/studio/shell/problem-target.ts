// Where a validator problem sends the author: its path (`$.moments[3].transitions[0].next_moment_id`) names an entry
// of one of the story's lists by index; the studio shows that entry by id, on its own screen.
import type { Json } from '../../../../engine/authoring/apply.js';

export type ProblemTarget =
  | { kind: 'moment'; id: string; field: string | null }
  | { kind: 'characters' | 'items' | 'places'; id: string; field: string | null }
  | { kind: 'story'; field: string | null };

const LISTED = /^\$\.(moments|characters|items|places)\[(\d+)\](?:\.([a-z_]+))?/;

/** The entry a problem path names in `doc`, or the story itself. */
export function problemTarget(doc: Json, path: string): ProblemTarget {
  const m = LISTED.exec(path);
  if (!m) {
    const field = /^\$\.([a-z_]+)/.exec(path)?.[1] ?? null;
    return { kind: 'story', field };
  }
  const [, list = '', index = '0', field = null] = m;
  const entry = (Array.isArray(doc[list]) ? (doc[list] as unknown[]) : [])[Number(index)];
  const id = typeof entry === 'object' && entry !== null && typeof (entry as Json).id === 'string' ? String((entry as Json).id) : null;
  if (id === null) return { kind: 'story', field: list };
  return list === 'moments' ? { kind: 'moment', id, field } : { kind: list as 'characters' | 'items' | 'places', id, field };
}

/** The studio URL showing a problem's target. */
export function problemHref(storyId: string, target: ProblemTarget): string {
  const story = `/admin/stories/${storyId}`;
  switch (target.kind) {
    case 'moment': return `${story}/flow/moment/${target.id}`;
    case 'story': return story;
    case 'characters':
    case 'items':
    case 'places': return `/admin/${target.kind}/${target.id}?story=${storyId}`;
  }
}

/** A text field's English value, whatever its form (a string or { en, fr }). */
export function englishOf(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'object' && v !== null && typeof (v as Json).en === 'string') return String((v as Json).en);
  return '';
}
