// A revision's diff in words for the history page: each changed field with its value before and after (texts per
// language; a long text as a word diff, done by the view), and the graph's changes said plainly: a moment added or
// removed, a transition added or removed, the first moment moved. Names come from the values themselves, else from
// the story as it is now. Pure: no React.

type Json = Record<string, unknown>;

export type DiffEntry = { path: string; before?: unknown; after?: unknown };

export type Line =
  /** A field set: its label, and the value before and after as text (null: not set). */
  | { kind: 'field'; label: string; before: string | null; after: string | null; long: boolean }
  /** A graph change or an entity added or removed, in words. */
  | { kind: 'graph' | 'entity'; text: string };

const LONG = 60;
const SINGULAR: Record<string, string> = { moments: 'Moment', characters: 'Character', items: 'Item', places: 'Place' };

const isObj = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);

/** A text field's words ({en, fr} or a plain string), English first. */
export function textOf(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v.length === 0 ? '(none)' : v.join(', ');
  if (isObj(v) && (typeof v.en === 'string' || typeof v.fr === 'string') && Object.keys(v).every((k) => k === 'en' || k === 'fr')) {
    return [typeof v.en === 'string' ? `EN: ${v.en}` : null, typeof v.fr === 'string' ? `FR: ${v.fr}` : null].filter(Boolean).join('\n');
  }
  return JSON.stringify(v);
}

function nameOf(v: unknown): string | null {
  if (!isObj(v)) return null;
  const n = v.name;
  if (typeof n === 'string') return n;
  if (isObj(n) && typeof n.en === 'string') return n.en;
  return null;
}

/** The name of an entity of the story as it is now, or its id's start. */
function named(doc: Json, collection: string, id: string): string {
  const list = doc[collection];
  const found = Array.isArray(list) ? (list as unknown[]).find((e) => isObj(e) && e.id === id) : undefined;
  return nameOf(found) ?? `${id.slice(0, 8)}…`;
}

const quoted = (s: string): string => `"${s}"`;

function targets(v: unknown): string[] {
  return Array.isArray(v) ? (v as unknown[]).flatMap((t) => (isObj(t) && typeof t.next_moment_id === 'string' ? [t.next_moment_id] : [])) : [];
}

const fieldLabel = (f: string): string => f.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

export function describeEntry(e: DiffEntry, doc: Json): Line[] {
  const parts = e.path.split('/');
  const [a, b, field] = parts;
  // A whole entity added or removed.
  if (a && b && field === undefined && SINGULAR[a]) {
    const what = SINGULAR[a] ?? 'Entity';
    const name = nameOf(e.after) ?? nameOf(e.before) ?? named(doc, a, b);
    const verb = e.before === undefined ? 'added' : e.after === undefined ? 'removed' : 'replaced';
    const lines: Line[] = [{ kind: a === 'moments' ? 'graph' : 'entity', text: `${what} ${verb}: ${quoted(name)}` }];
    if (a === 'moments') {
      const from = verb === 'removed' ? targets(isObj(e.before) ? e.before.transitions : undefined) : targets(isObj(e.after) ? e.after.transitions : undefined);
      for (const t of from) lines.push({ kind: 'graph', text: `Transition ${verb === 'removed' ? 'removed' : 'added'}: ${quoted(name)} → ${quoted(named(doc, 'moments', t))}` });
    }
    return lines;
  }
  // The graph's edges: transitions, skips, the first moment.
  if (a === 'moments' && b && field === 'transitions') {
    const before = targets(e.before);
    const after = targets(e.after);
    const from = named(doc, 'moments', b);
    const lines: Line[] = [
      ...after.filter((t) => !before.includes(t)).map((t): Line => ({ kind: 'graph', text: `Transition added: ${quoted(from)} → ${quoted(named(doc, 'moments', t))}` })),
      ...before.filter((t) => !after.includes(t)).map((t): Line => ({ kind: 'graph', text: `Transition removed: ${quoted(from)} → ${quoted(named(doc, 'moments', t))}` })),
    ];
    // Same targets, other labels or replies: show the field itself.
    if (lines.length > 0) return lines;
  }
  if (a === 'moments' && b && field === 'skip_to_moment_id') {
    const from = named(doc, 'moments', b);
    if (typeof e.after === 'string') return [{ kind: 'graph', text: `Skip added: ${quoted(from)} ⇢ ${quoted(named(doc, 'moments', e.after))}` }];
    if (typeof e.before === 'string') return [{ kind: 'graph', text: `Skip removed: ${quoted(from)} ⇢ ${quoted(named(doc, 'moments', e.before))}` }];
  }
  if (a === 'first_moment_id' && typeof e.after === 'string') {
    return [{ kind: 'graph', text: `First moment is now ${quoted(named(doc, 'moments', e.after))}${typeof e.before === 'string' ? ` (was ${quoted(named(doc, 'moments', e.before))})` : ''}` }];
  }
  let label: string;
  if (a && b && field && SINGULAR[a]) label = `${SINGULAR[a]} ${quoted(named(doc, a, b))}: ${fieldLabel(field)}`;
  else if (a === 'catalogue' && b) label = `Catalogue: ${fieldLabel(b)}`;
  else label = fieldLabel(e.path);
  const before = textOf(e.before);
  const after = textOf(e.after);
  return [{ kind: 'field', label, before, after, long: (before?.length ?? 0) > LONG || (after?.length ?? 0) > LONG }];
}

export function describeRevision(diff: readonly DiffEntry[], doc: Json): Line[] {
  return diff.flatMap((e) => describeEntry(e, doc));
}
