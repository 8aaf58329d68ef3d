// A read-only summary of the selected moment beside the graph: its name, type, opening and where it leads. The
// moment's form (web/src/studio/forms/moment-form.tsx) takes this place once it is on main.
import type { Json } from '../../../../engine/authoring/apply.js';
import { english, momentsOf, moduleOf } from './flow-model.js';

export function MomentSummary({ doc, momentId }: { doc: Json; momentId: string }) {
  const moments = momentsOf(doc);
  const m = moments.find((x) => x.id === momentId);
  if (!m) return <p className="flow-side__muted">This moment is no longer in the story.</p>;
  const mod = moduleOf(m.type);
  const nameOf = (id: unknown): string => english(moments.find((x) => x.id === id)?.name) || String(id);
  const opening = Array.isArray(m.opening) ? m.opening.map(english).filter(Boolean) : [];
  const transitions = Array.isArray(m.transitions) ? (m.transitions as Json[]) : [];
  return (
    <div className="flow-summary" data-testid="flow-summary">
      <h2 className="flow-summary__name">{english(m.name) || '(no name)'}</h2>
      <p className="flow-side__muted">{mod?.graph.label ?? String(m.type)} · {mod?.description ?? ''}</p>
      {opening.length > 0 ? (
        <>
          <h3>Opening</h3>
          <ul className="flow-summary__list">{opening.map((o, i) => <li key={i}>{o}</li>)}</ul>
        </>
      ) : null}
      <h3>Leads to</h3>
      {transitions.length === 0 && typeof m.skip_to_moment_id !== 'string' ? <p className="flow-side__muted">Nowhere yet: drag from its lower edge to another moment.</p> : null}
      <ul className="flow-summary__list">
        {transitions.map((t, i) => <li key={i}>{nameOf(t.next_moment_id)}{english(t.label) ? ` (${english(t.label)})` : ''}</li>)}
        {typeof m.skip_to_moment_id === 'string' ? <li>Skips to {nameOf(m.skip_to_moment_id)}</li> : null}
      </ul>
    </div>
  );
}
