// /admin: the author's stories. Each with its publish state and last edit, opened by its name; export (the story file
// or the .tar archive with its media), duplicate, delete (confirmed, then undoable until its purge). A new story from
// nothing or from a template, and an import of a story file (.json) or archive (.tar).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { ApiError } from '../../../../engine/client/api/http.js';
import { Alert } from '../../ui/alert.js';
import { Button } from '../../ui/button.js';
import { Modal } from '../../ui/modal.js';
import { Spinner } from '../../ui/spinner.js';
import { NewStory } from './new-story.js';
import { ImportStory } from './import-story.js';
import { download, fileNameOf, refusalText, workshop, workshopKeys, type DeletedStory, type WorkshopStory } from './workshop-api.js';
import './stories.css';

const when = (iso: string): string => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function publishState(s: WorkshopStory): string {
  if (s.published_version === null) return 'Draft · never published';
  return `Published v${s.published_version}`;
}

function StoryRow({ story, onDelete, onError }: { story: WorkshopStory; onDelete: (s: WorkshopStory) => void; onError: (m: string) => void }) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const duplicate = useMutation({
    mutationFn: () => workshop.duplicate(story.id),
    onSuccess: async (w) => {
      await qc.invalidateQueries({ queryKey: workshopKeys.stories });
      void navigate(`/admin/stories/${w.draft.story_id}`);
    },
    onError: (e) => onError(`Could not duplicate "${story.name}": ${refusalText(e)}`),
  });
  const save = (path: string, ext: string) => {
    download(path, `${fileNameOf(story.name)}.${ext}`).catch((e: unknown) => onError(`Could not export "${story.name}": ${refusalText(e)}`));
  };
  return (
    <li className="stories-row" data-testid="stories-row" data-story-id={story.id}>
      <div className="stories-row__main">
        <Link className="stories-row__name" to={`/admin/stories/${story.id}`}>{story.name || 'Untitled story'}</Link>
        <p className="stories-row__meta">
          <span className={story.published_version === null ? 'stories-badge stories-badge--draft' : 'stories-badge stories-badge--live'}>{publishState(story)}</span>
          <span>Last edit {when(story.updated_at)}</span>
        </p>
      </div>
      <div className="stories-row__actions">
        <Button size="sm" variant="ghost" onClick={() => save(workshop.exportPath(story.id), 'json')}>Export .json</Button>
        {story.published_version !== null ? <Button size="sm" variant="ghost" onClick={() => save(workshop.archivePath(story.id), 'tar')}>Export .tar</Button> : null}
        <Button size="sm" variant="ghost" busy={duplicate.isPending} busyLabel="Duplicating..." onClick={() => duplicate.mutate()}>Duplicate</Button>
        <Button size="sm" variant="danger" onClick={() => onDelete(story)}>Delete</Button>
      </div>
    </li>
  );
}

function DeletedRow({ story, onError }: { story: DeletedStory; onError: (m: string) => void }) {
  const qc = useQueryClient();
  const undo = useMutation({
    mutationFn: () => workshop.undelete(story.id),
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: workshopKeys.stories }), qc.invalidateQueries({ queryKey: workshopKeys.deleted })]),
    onError: (e) => onError(`Could not bring back "${story.name}": ${refusalText(e)}`),
  });
  return (
    <li className="stories-row stories-row--deleted" data-testid="stories-deleted-row" data-story-id={story.id}>
      <div className="stories-row__main">
        <span className="stories-row__name">{story.name || 'Untitled story'}</span>
        <p className="stories-row__meta">Deleted {when(story.deleted_at)} · removed for good on {when(story.purge_at)}</p>
      </div>
      <div className="stories-row__actions">
        <Button size="sm" busy={undo.isPending} busyLabel="Restoring..." onClick={() => undo.mutate()}>Undo</Button>
      </div>
    </li>
  );
}

export function StoriesPage() {
  const qc = useQueryClient();
  const stories = useQuery({ queryKey: workshopKeys.stories, queryFn: workshop.stories });
  const deleted = useQuery({ queryKey: workshopKeys.deleted, queryFn: workshop.deleted });
  const [confirming, setConfirming] = useState<WorkshopStory | null>(null);
  const [error, setError] = useState<string | null>(null);
  const remove = useMutation({
    mutationFn: (s: WorkshopStory) => workshop.remove(s.id),
    onSuccess: async () => {
      setConfirming(null);
      await Promise.all([qc.invalidateQueries({ queryKey: workshopKeys.stories }), qc.invalidateQueries({ queryKey: workshopKeys.deleted })]);
    },
  });
  return (
    <section className="stories" data-testid="stories-page">
      <header className="stories__head">
        <h1>Your stories</h1>
      </header>
      <div className="stories__tools">
        <NewStory />
        <ImportStory />
      </div>
      {error ? <Alert>{error}</Alert> : null}
      {stories.isPending ? <Spinner /> : null}
      {stories.isError ? <Alert>{stories.error instanceof ApiError ? stories.error.message : 'Failed to load stories. Please try refreshing the page.'}</Alert> : null}
      {stories.isSuccess && stories.data.length === 0 ? <p className="stories__empty">No stories yet: start one from nothing or from a template, or import a story file.</p> : null}
      <ul className="stories__list" data-testid="stories-list">
        {(stories.data ?? []).map((s) => <StoryRow key={s.id} story={s} onDelete={(x) => { remove.reset(); setConfirming(x); }} onError={setError} />)}
      </ul>
      {deleted.data && deleted.data.length > 0 ? (
        <>
          <h2 className="stories__subhead">Deleted stories</h2>
          <p className="stories__hint">A deleted story is in no catalogue and no new run starts it. Undo brings it back as it was.</p>
          <ul className="stories__list" data-testid="stories-deleted">
            {deleted.data.map((s) => <DeletedRow key={s.id} story={s} onError={setError} />)}
          </ul>
        </>
      ) : null}
      <Modal open={confirming !== null} onClose={() => setConfirming(null)} title={`Delete "${confirming?.name ?? ''}"?`} maxWidth={480} testId="stories-confirm-delete">
        <p>Players will no longer find it in the catalogue and no new run can start it. Runs under way are kept until it is removed for good.</p>
        <p>You can undo this from this page for 7 days; after that it is removed for good.</p>
        {remove.isError ? <Alert>{refusalText(remove.error)}</Alert> : null}
        <div className="stories__confirm">
          <Button onClick={() => setConfirming(null)}>Cancel</Button>
          <Button variant="danger" busy={remove.isPending} busyLabel="Deleting..." onClick={() => { if (confirming) remove.mutate(confirming); }}>Delete</Button>
        </div>
      </Modal>
    </section>
  );
}
