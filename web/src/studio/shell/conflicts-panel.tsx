// Conflicts: a field this tab changed that someone else changed first. Both values are shown; the author keeps
// theirs, keeps their own, or writes another. Nothing is overwritten until they choose.
import { useState } from 'react';
import type { Json } from '../../../../engine/authoring/apply.js';
import { Button } from '../../ui/button.js';
import type { Conflict, StudioDraft } from '../draft/types.js';
import { englishOf } from './problem-target.js';

/** A value as the author reads it: a text in its languages, else JSON. */
export function showValue(v: unknown): string {
  if (v === undefined) return '(nothing: removed)';
  if (typeof v === 'string') return v;
  if (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).every((k) => k === 'en' || k === 'fr')) {
    return Object.entries(v as Json).map(([k, t]) => `${k.toUpperCase()}: ${String(t)}`).join('\n');
  }
  return JSON.stringify(v, null, 2);
}

/** What a conflict's path is about, in words ("Moment The lighthouse · goal"). */
function where(doc: Json, path: string): string {
  const [list, id, field] = path.split('/');
  if (id === undefined || list === 'catalogue') return path.replace('/', ' · ');
  const entry = (doc[list ?? ''] as Json[] | undefined)?.find((e) => e.id === id);
  const kind = { moments: 'Moment', characters: 'Character', items: 'Item', places: 'Place' }[list ?? ''] ?? list;
  return `${kind} ${englishOf(entry?.name) || id}${field ? ` · ${field}` : ''}`;
}

function ConflictRow({ draft, c }: { draft: StudioDraft; c: Conflict }) {
  const [editing, setEditing] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const keepWritten = () => {
    if (editing === null) return;
    const structured = typeof c.mine !== 'string' && !(typeof c.mine === 'object' && c.mine !== null && 'en' in c.mine);
    if (!structured) {
      draft.resolve(c.path, typeof c.mine === 'string' ? editing : { ...(c.mine as Json), en: editing });
      return;
    }
    try {
      draft.resolve(c.path, JSON.parse(editing) as unknown);
    } catch {
      setProblem('Not valid JSON: check the brackets and quotes.');
    }
  };
  return (
    <li className="studio-conflict" data-testid="conflict">
      <h3>{where(draft.doc, c.path)}</h3>
      <div className="studio-conflict__values">
        <div><p className="studio-muted">Theirs (on the server now)</p><pre>{showValue(c.now)}</pre></div>
        <div><p className="studio-muted">Yours</p><pre>{showValue(c.mine)}</pre></div>
      </div>
      {editing !== null ? (
        <label className="studio-conflict__edit">
          Your value
          <textarea value={editing} onChange={(e) => setEditing(e.target.value)} rows={4} />
          {problem ? <span role="alert" className="studio-error">{problem}</span> : null}
        </label>
      ) : null}
      <div className="studio-conflict__actions">
        <Button size="sm" onClick={() => draft.resolve(c.path, c.now)}>Keep theirs</Button>
        <Button size="sm" onClick={() => draft.resolve(c.path, c.mine)}>Keep mine</Button>
        {editing === null
          ? <Button size="sm" variant="ghost" onClick={() => setEditing(typeof c.mine === 'string' ? c.mine : englishOf(c.mine) && typeof c.mine === 'object' && c.mine !== null && 'en' in c.mine ? englishOf(c.mine) : JSON.stringify(c.mine, null, 2))}>Write another</Button>
          : <Button size="sm" variant="primary" onClick={keepWritten}>Keep this</Button>}
      </div>
    </li>
  );
}

export function ConflictsPanel({ draft }: { draft: StudioDraft }) {
  if (draft.conflicts.length === 0) return null;
  return (
    <section className="studio-conflicts" aria-label="Conflicts" data-testid="conflicts">
      <h2>Someone else changed the same thing</h2>
      <p className="studio-muted">Your edits below were not saved over theirs. Choose what to keep for each.</p>
      <ul>{draft.conflicts.map((c) => <ConflictRow key={c.path} draft={draft} c={c} />)}</ul>
    </section>
  );
}
