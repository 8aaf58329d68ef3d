// The flow graph's search box: every moment holding the words is highlighted, and next/previous (Enter, Shift+Enter)
// centre the graph on each in turn.
import { useEffect, useId, useMemo, useState } from 'react';
import type { Json } from '../../../../engine/authoring/apply.js';
import { Button } from '../../ui/button.js';
import { searchMoments } from './flow-search.js';

export type Hits = { ids: string[]; current: number };

export function FlowSearch({ doc, hits, onHits, onCentre }: { doc: Json; hits: Hits; onHits: (h: Hits) => void; onCentre: (id: string) => void }) {
  const [query, setQuery] = useState('');
  const id = useId();
  const ids = useMemo(() => searchMoments(doc, query), [doc, query]);
  const key = ids.join(',');
  useEffect(() => {
    onHits({ ids, current: ids.length > 0 ? 0 : -1 });
    if (ids[0]) onCentre(ids[0]);
    // A new set of hits (not a new callback) starts again at the first.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  const step = (by: number) => {
    if (hits.ids.length === 0) return;
    const current = (hits.current + by + hits.ids.length) % hits.ids.length;
    onHits({ ids: hits.ids, current });
    const target = hits.ids[current];
    if (target) onCentre(target);
  };
  return (
    <div className="flow-search" role="search">
      <label htmlFor={id} className="flow-search__label">Search</label>
      <input
        id={id}
        type="search"
        className="flow-search__input"
        placeholder="Names, lines, sentences..."
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            step(e.shiftKey ? -1 : 1);
          }
        }}
        data-testid="flow-search"
      />
      <span className="flow-search__count" aria-live="polite" data-testid="flow-search-count">
        {query.trim() === '' ? '' : hits.ids.length === 0 ? 'No match' : `${hits.current + 1} of ${hits.ids.length}`}
      </span>
      <Button size="sm" variant="ghost" onClick={() => step(-1)} disabled={hits.ids.length < 2}>Previous</Button>
      <Button size="sm" variant="ghost" onClick={() => step(1)} disabled={hits.ids.length < 2}>Next</Button>
    </div>
  );
}
