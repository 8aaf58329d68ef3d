// The admin area (accounts spec §2 "Admin routes"), loaded lazily so the catalogue never ships it (a spinner shows
// meanwhile, router.tsx). The spec shows no role check on these routes; ours: the studio is for authors and admins
// (GET /api/me's role; `looptale user role EMAIL author`), a player is told so and sees none of it; feedback is for
// admins. The server checks each route itself. The studio (web/src/studio/): the stories list, and per story its
// catalogue page, flow graph, characters, items, places and history inside one draft (StoryLayout); the character,
// item and place pages find their story themselves. Prompts, evaluations and metrics say they are not built yet.
import { Link, NavLink, Route, Routes } from 'react-router-dom';
import { useAdminFeedback, useMe } from '../api/queries.js';
import { useSession } from '../auth/session.js';
import { Alert } from '../ui/alert.js';
import { Spinner } from '../ui/spinner.js';
import { FlowPage } from '../studio/flow/flow-page.js';
import { StoryLayout } from '../studio/shell/story-layout.js';
import { StoriesPage } from '../studio/stories/stories-page.js';
import { StoryPage } from '../studio/catalogue/story-page.js';
import { HistoryPage } from '../studio/history/history-page.js';
import { EntityListPage } from '../studio/entities/entity-list-page.js';
import { EntityPage } from '../studio/entities/entity-page.js';
import './admin-area.css';

function useUserId(): string | null {
  const { state } = useSession();
  return state.status === 'signed_in' ? state.userId : null;
}

function FeedbackList() {
  const me = useMe(useUserId());
  const feedback = useAdminFeedback(me.data?.is_admin === true);
  return (
    <section>
      <h1>Feedback</h1>
      {me.isPending ? <Spinner /> : null}
      {me.data && !me.data.is_admin ? <Alert tone="info">Only admins can read feedback.</Alert> : null}
      {feedback.isError ? <Alert>{feedback.error.message}</Alert> : null}
      {feedback.isSuccess && feedback.data.length === 0 ? <p className="admin__muted">No feedback yet.</p> : null}
      <ul className="admin__feedback" data-testid="admin-feedback">
        {(feedback.data ?? []).map((f) => (
          <li key={f.id}>
            <p className="admin__muted">{new Date(f.created_at).toLocaleString()} · {f.kind} · {f.email ?? f.user_id}</p>
            <p className="admin__message">{f.message}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

function NotBuilt() {
  return (
    <section>
      <h1>Studio</h1>
      <p className="admin__muted">This part of the studio is not built yet. <Link to="/admin">Stories</Link></p>
    </section>
  );
}

/** What a player (or a signed-out visitor) sees at /admin. */
function AuthorsOnly({ signedIn }: { signedIn: boolean }) {
  return (
    <div className="page admin">
      <section data-testid="studio-authors-only">
        <h1>Studio</h1>
        <p className="admin__muted">
          {signedIn
            ? 'The studio is for story makers. Ask an admin to make your account an author to create and edit stories.'
            : 'Sign in with an author account to use the studio.'}
        </p>
        <p><Link to="/browse">Back to the stories</Link></p>
      </section>
    </div>
  );
}

export default function AdminArea() {
  const { state } = useSession();
  const userId = useUserId();
  const me = useMe(userId);
  if (state.status === 'loading') return <div className="page admin"><Spinner /></div>;
  if (!userId) return <AuthorsOnly signedIn={false} />;
  if (me.isPending) return <div className="page admin"><Spinner /></div>;
  if (me.isError) return <div className="page admin"><Alert>{me.error.message}</Alert></div>;
  if (me.data.role === 'player') return <AuthorsOnly signedIn />;
  return (
    <div className="page admin">
      <nav className="admin__tabs admin__tabs--top" aria-label="Studio">
        <NavLink end to="/admin">Stories</NavLink>
        {me.data?.is_admin ? <NavLink to="/admin/feedback">Feedback</NavLink> : null}
      </nav>
      <Routes>
        <Route index element={<StoriesPage />} />
        <Route path="stories/:storyId" element={<StoryLayout />}>
          <Route index element={<StoryPage />} />
          <Route path="flow" element={<FlowPage />} />
          <Route path="flow/moment/:momentId" element={<FlowPage />} />
          <Route path="characters" element={<EntityListPage collection="characters" />} />
          <Route path="items" element={<EntityListPage collection="items" />} />
          <Route path="places" element={<EntityListPage collection="places" />} />
          <Route path="history" element={<HistoryPage />} />
        </Route>
        <Route path="characters/:id" element={<EntityPage collection="characters" />} />
        <Route path="items/:id" element={<EntityPage collection="items" />} />
        <Route path="places/:id" element={<EntityPage collection="places" />} />
        <Route path="feedback" element={<FeedbackList />} />
        <Route path="*" element={<NotBuilt />} />
      </Routes>
    </div>
  );
}
