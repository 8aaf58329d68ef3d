// The story's history (/admin/stories/:storyId/history): publishing with a note (refused with the validator's errors
// listed), the published versions with their notes, and every revision of the draft, newest first and paged, with
// its author, time and diff; any revision can be restored (as a new revision: history only grows).
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../../../engine/client/api/http.js';
import type { Json } from '../../../../engine/authoring/apply.js';
import { useSession } from '../../auth/session.js';
import { Alert } from '../../ui/alert.js';
import { Button } from '../../ui/button.js';
import { Modal } from '../../ui/modal.js';
import { Spinner } from '../../ui/spinner.js';
import type { StudioDraft } from '../draft/types.js';
import { refusalText, workshop, workshopKeys, type Revision } from '../stories/workshop-api.js';
import { describeRevision } from './describe-revision.js';
import { RevisionDiff } from './revision-diff.js';
import './history.css';

const when = (iso: string): string => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

function useUserId(): string | null {
  const { state } = useSession();
  return state.status === 'signed_in' ? state.userId : null;
}

function Publish({ draft }: { draft: StudioDraft }) {
  const qc = useQueryClient();
  const [note, setNote] = useState('');
  const [done, setDone] = useState<number | null>(null);
  const versions = useQuery({ queryKey: workshopKeys.versions(draft.storyId), queryFn: () => workshop.versions(draft.storyId) });
  const live = versions.data?.[0]?.version ?? draft.baseVersion;
  const errors = draft.problems.filter((p) => p.severity === 'error');
  const publish = useMutation({
    mutationFn: () => workshop.publish(draft.storyId, draft.revision, note.trim() || undefined),
    onSuccess: async (w) => {
      setDone(w.version ?? null);
      setNote('');
      await Promise.all([qc.invalidateQueries({ queryKey: workshopKeys.versions(draft.storyId) }), qc.invalidateQueries({ queryKey: workshopKeys.stories })]);
    },
  });
  const refused = publish.error instanceof ApiError && publish.error.code === 'authoring/invalid';
  const unsaved = draft.pending > 0 || draft.status === 'saving' || draft.status === 'pending';
  return (
    <section className="hist-panel" aria-labelledby="hist-publish-title">
      <h2 id="hist-publish-title">Publish</h2>
      <p className="hist-muted">
        {live === null ? 'Never published: no player sees this story yet.' : `Players play version ${live}.`} Publishing makes the draft as it is now the next version: new runs play it, runs under way keep theirs.
      </p>
      <label className="hist-label" htmlFor="hist-note">Note (optional): what changed in this version</label>
      <textarea id="hist-note" className="hist-note" rows={2} maxLength={500} value={note} onChange={(e) => setNote(e.target.value)} />
      {errors.length > 0 ? (
        <div className="hist-errors" data-testid="hist-publish-errors" tabIndex={0} role="region" aria-label="Errors that block publishing">
          <p>Publishing is refused while the story has {errors.length} error{errors.length === 1 ? '' : 's'}:</p>
          <ul>{errors.slice(0, 20).map((p) => <li key={`${p.path}:${p.code}`}><code>{p.path}</code> {p.message}</li>)}</ul>
        </div>
      ) : null}
      {publish.isError ? <Alert>{refused ? 'Publishing was refused: fix the errors above first.' : refusalText(publish.error)}</Alert> : null}
      {done !== null ? <Alert tone="success" testId="hist-published">Published as version {done}.</Alert> : null}
      <Button variant="primary" disabled={errors.length > 0 || unsaved} busy={publish.isPending} busyLabel="Publishing..." onClick={() => { setDone(null); publish.mutate(); }}>
        {unsaved ? 'Saving...' : 'Publish'}
      </Button>
    </section>
  );
}

function Versions({ storyId, me }: { storyId: string; me: string | null }) {
  const versions = useQuery({ queryKey: workshopKeys.versions(storyId), queryFn: () => workshop.versions(storyId) });
  return (
    <section className="hist-panel" aria-labelledby="hist-versions-title">
      <h2 id="hist-versions-title">Versions</h2>
      {versions.isPending ? <Spinner /> : null}
      {versions.isError ? <Alert>{refusalText(versions.error)}</Alert> : null}
      {versions.data?.length === 0 ? <p className="hist-muted">No version yet.</p> : null}
      <ol className="hist-versions" data-testid="hist-versions">
        {(versions.data ?? []).map((v) => (
          <li key={v.version}>
            <strong>Version {v.version}</strong> <span className="hist-muted">{when(v.published_at)} · {who(v.published_by, me)}</span>
            {v.note ? <p className="hist-version-note">{v.note}</p> : null}
          </li>
        ))}
      </ol>
    </section>
  );
}

function who(id: string | null, me: string | null): string {
  if (id === null) return 'the server';
  return id === me ? 'you' : `author ${id.slice(0, 8)}`;
}

function RevisionItem({ r, doc, me, head, onRestore }: { r: Revision; doc: Json; me: string | null; head: number; onRestore: (r: Revision) => void }) {
  return (
    <li className="hist-rev" data-testid="hist-revision" data-revision={r.revision}>
      <div className="hist-rev__head">
        <span className="hist-rev__num">#{r.revision}</span>
        <span className="hist-rev__summary">{r.summary}</span>
        <span className="hist-muted">{when(r.at)} · {who(r.author_id, me)}</span>
        {r.revision < head ? <Button size="sm" variant="ghost" onClick={() => onRestore(r)}>Restore</Button> : <span className="hist-muted">current</span>}
      </div>
      <RevisionDiff lines={describeRevision(r.diff, doc)} />
    </li>
  );
}

export function HistoryView({ draft }: { draft: StudioDraft }) {
  const qc = useQueryClient();
  const me = useUserId();
  const [restoring, setRestoring] = useState<Revision | null>(null);
  const history = useInfiniteQuery({
    queryKey: [...workshopKeys.history(draft.storyId), draft.revision],
    queryFn: ({ pageParam }) => workshop.history(draft.storyId, pageParam),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => (last.length === 20 ? last[last.length - 1]?.revision : undefined),
  });
  const restore = useMutation({
    mutationFn: (r: Revision) => workshop.restore(draft.storyId, draft.revision, r.revision),
    onSuccess: async () => {
      setRestoring(null);
      await qc.invalidateQueries({ queryKey: workshopKeys.history(draft.storyId) });
    },
  });
  const revisions = history.data?.pages.flat() ?? [];
  return (
    <div className="hist" data-testid="history-page">
      <div className="hist__side">
        <Publish draft={draft} />
        <Versions storyId={draft.storyId} me={me} />
      </div>
      <section className="hist__main" aria-labelledby="hist-revisions-title">
        <h2 id="hist-revisions-title">Revisions</h2>
        {history.isPending ? <Spinner /> : null}
        {history.isError ? <Alert>{refusalText(history.error)}</Alert> : null}
        {history.isSuccess && revisions.length === 0 ? <p className="hist-muted">No edit yet: revision 0 is the story as it was created.</p> : null}
        <ol className="hist-revs">
          {revisions.map((r) => <RevisionItem key={r.revision} r={r} doc={draft.doc} me={me} head={draft.revision} onRestore={(x) => { restore.reset(); setRestoring(x); }} />)}
          {history.isSuccess && !history.hasNextPage && revisions.length > 0 ? (
            <li className="hist-rev hist-rev--origin">
              <div className="hist-rev__head"><span className="hist-rev__num">#0</span><span className="hist-rev__summary">The story as it was created or first opened</span>
                <Button size="sm" variant="ghost" onClick={() => { restore.reset(); setRestoring({ revision: 0, author_id: null, at: '', summary: 'The story as it was created', diff: [] }); }}>Restore</Button>
              </div>
            </li>
          ) : null}
        </ol>
        {history.hasNextPage ? <Button busy={history.isFetchingNextPage} busyLabel="Loading..." onClick={() => void history.fetchNextPage()}>Older revisions</Button> : null}
      </section>
      <Modal open={restoring !== null} onClose={() => setRestoring(null)} title={`Restore revision ${restoring?.revision ?? ''}?`} maxWidth={480} testId="hist-confirm-restore">
        <p>The draft goes back to how it was at revision {restoring?.revision}. This is saved as a new revision: nothing in the history is lost, and you can restore the current one again later.</p>
        {restore.isError ? <Alert>{restore.error instanceof ApiError && restore.error.code === 'authoring/stale' ? 'The draft changed meanwhile (an edit of yours still being saved, or another author): wait a moment and try again.' : refusalText(restore.error)}</Alert> : null}
        <div className="hist-confirm">
          <Button onClick={() => setRestoring(null)}>Cancel</Button>
          <Button variant="primary" busy={restore.isPending} busyLabel="Restoring..." onClick={() => { if (restoring) restore.mutate(restoring); }}>Restore</Button>
        </div>
      </Modal>
    </div>
  );
}
