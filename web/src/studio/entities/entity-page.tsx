// /admin/characters/:id, /admin/items/:id, /admin/places/:id: the address names no story, so the page asks the server
// which of the caller's stories holds the id (GET /api/authoring/entities/:id), then edits it inside that story's
// draft (DraftProvider) like every other story screen.
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import type { EntityCollection } from '../../../../engine/story/entity-fields.js';
import { api } from '../../api/client.js';
import { Alert } from '../../ui/alert.js';
import { Button } from '../../ui/button.js';
import { Spinner } from '../../ui/spinner.js';
import { DraftProvider, useDraft } from '../draft/draft-context.js';
import { ConflictsPanel } from '../shell/conflicts-panel.js';
import { SaveStatus } from '../shell/save-status.js';
import { useUndoKeys } from '../shell/use-undo-keys.js';
import '../shell/studio.css';
import { EntityEditor } from './entity-editor.js';
import { MANY, ONE } from './entity-words.js';

/** The save status, undo and redo, and any conflict, as on the story's own pages (this page is outside the story
 *  layout). */
function DraftState() {
  const d = useDraft();
  useUndoKeys(d);
  return (
    <>
      <div className="ent-state">
        <SaveStatus draft={d} />
        <Button size="sm" variant="ghost" onClick={d.undo} disabled={d.undoLabels.length === 0} aria-label={d.undoLabels[0] ? `Undo ${d.undoLabels[0]}` : 'Undo'}>Undo</Button>
        <Button size="sm" variant="ghost" onClick={d.redo} disabled={d.redoLabels.length === 0} aria-label={d.redoLabels[0] ? `Redo ${d.redoLabels[0]}` : 'Redo'}>Redo</Button>
      </div>
      {d.conflicts.length > 0 ? <ConflictsPanel draft={d} /> : null}
    </>
  );
}

type EntityHome = { story_id: string; story_name: string; collection: EntityCollection };

export function EntityPage({ collection }: { collection: EntityCollection }) {
  const { id = '' } = useParams();
  const home = useQuery({
    queryKey: ['studio', 'entity-home', id],
    queryFn: () => api.request<EntityHome>('GET', `/api/authoring/entities/${encodeURIComponent(id)}`),
    retry: false,
  });
  if (home.isPending) return <Spinner />;
  if (home.isError) return <Alert>{home.error.message}</Alert>;
  const h = home.data;
  return (
    <section className="ent-home">
      <nav className="ent-crumbs" aria-label="Breadcrumb">
        <Link to="/admin">Stories</Link> / <Link to={`/admin/stories/${h.story_id}`}>{h.story_name}</Link> / <Link to={`/admin/stories/${h.story_id}/${h.collection}`}>{MANY[h.collection]}</Link>
      </nav>
      {h.collection !== collection ? (
        <Alert tone="info">This is {ONE[h.collection] === 'item' ? 'an' : 'a'} {ONE[h.collection]}, not {ONE[collection] === 'item' ? 'an' : 'a'} {ONE[collection]}: <Link to={`/admin/${h.collection}/${id}`}>open it as {ONE[h.collection] === 'item' ? 'an' : 'a'} {ONE[h.collection]}</Link>.</Alert>
      ) : (
        <DraftProvider storyId={h.story_id}>
          <DraftState />
          <EntityEditor collection={collection} id={id} />
        </DraftProvider>
      )}
    </section>
  );
}
