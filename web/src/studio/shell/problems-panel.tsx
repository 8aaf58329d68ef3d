// The draft's problems (the engine validator's, as `looptale story validate` reports them): errors first, each
// linking to the moment, character, item or place it is about. Publishing is refused while any error remains.
import { Link } from 'react-router-dom';
import type { Problem } from '../../../../engine/story/validate.js';
import type { Json } from '../../../../engine/authoring/apply.js';
import { englishOf, problemHref, problemTarget } from './problem-target.js';

/** The name of the entry a problem is about, for the list ("Moment: The lighthouse"). */
function subjectOf(doc: Json, p: Problem): string {
  const t = problemTarget(doc, p.path);
  if (t.kind === 'story') return t.field ? `Story: ${t.field}` : 'Story';
  const list = t.kind === 'moment' ? 'moments' : t.kind;
  const entry = (doc[list] as Json[] | undefined)?.find((e) => e.id === t.id);
  const label = { moment: 'Moment', characters: 'Character', items: 'Item', places: 'Place' }[t.kind];
  return `${label}: ${englishOf(entry?.name) || t.id}${t.field ? ` · ${t.field}` : ''}`;
}

export function ProblemsPanel({ storyId, doc, problems, onClose }: { storyId: string; doc: Json; problems: readonly Problem[]; onClose: () => void }) {
  const sorted = [...problems].sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
  return (
    <aside className="studio-problems" aria-label="Problems" data-testid="problems-panel">
      <header className="studio-problems__head">
        <h2>Problems</h2>
        <button type="button" className="studio-link" onClick={onClose}>Close</button>
      </header>
      {sorted.length === 0 ? <p className="studio-muted">No problems: the story can be published.</p> : null}
      <ul className="studio-problems__list">
        {sorted.map((p, i) => (
          <li key={`${p.path}-${p.code}-${i}`} className={`studio-problem studio-problem--${p.severity}`}>
            <Link to={problemHref(storyId, problemTarget(doc, p.path))}>
              <span className="studio-problem__sev">{p.severity === 'error' ? 'Error' : 'Warning'}</span>
              <span className="studio-problem__subject">{subjectOf(doc, p)}</span>
              <span className="studio-problem__message">{p.message}</span>
            </Link>
          </li>
        ))}
      </ul>
    </aside>
  );
}
