// The admin area (accounts spec §2 "Admin routes"), loaded lazily so the catalogue never ships it (a spinner shows
// meanwhile, router.tsx). The spec shows no role check on these routes; ours: the studio is for authors and admins
// (GET /api/me's role; `looptale user role EMAIL author`), a player is told so and sees none of it; the flow graph
// (the whole plot) is for admins and the story's authors, feedback for admins. The server checks each route itself. The studio's other screens (characters, items, places, prompts, evaluations, metrics)
// have their routes here and say they are not built yet.
import { Link, NavLink, Route, Routes } from 'react-router-dom';
import { useAdminFeedback, useMe, useStories } from '../api/queries.js';
import { useSession } from '../auth/session.js';
import { Alert } from '../ui/alert.js';
import { Spinner } from '../ui/spinner.js';
import { FlowPage } from '../studio/flow/flow-page.js';
import { useDraft } from '../studio/draft/draft-context.js';
import { StoryLayout } from '../studio/shell/story-layout.js';
import { englishOf } from '../studio/shell/problem-target.js';
import './admin-area.css';

function useUserId(): string | null {
  const { state } = useSession();
  return state.status === 'signed_in' ? state.userId : null;
}

function StoriesList() {
  const stories = useStories(useUserId());
  return (
    <section>
      <h1>Stories</h1>
      {stories.isPending ? <Spinner /> : null}
      {stories.isError ? <Alert>{stories.error.message}</Alert> : null}
      <ul className="admin__cards" data-testid="admin-stories">
        {(stories.data ?? []).map((s) => (
          <li key={s.id} className="admin__card">
            <img src={s.story_logo_image} alt="" width={48} height={48} />
            <div>
              <Link to={`stories/${s.id}`} className="admin__card-title">{s.name}</Link>
              <p className="admin__muted">{s.id}</p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The story's moments as the draft holds them (the Story tab until its catalogue page is in). */
function StoryDetail() {
  const { doc } = useDraft();
  const moments = (doc.moments as { id: string; name: unknown; type: string }[] | undefined) ?? [];
  return (
    <section>
      <p className="admin__muted">{moments.length} moments · at most {Number(doc.loop_max_number_of_interactions ?? 0)} interactions per run</p>
      <ol className="admin__list">{moments.map((m) => <li key={m.id}>{englishOf(m.name)} <span className="admin__muted">{m.type}</span></li>)}</ol>
    </section>
  );
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
        <Route index element={<StoriesList />} />
        <Route path="stories/:storyId" element={<StoryLayout />}>
          <Route index element={<StoryDetail />} />
          <Route path="flow" element={<FlowPage />} />
          <Route path="flow/moment/:momentId" element={<FlowPage />} />
        </Route>
        <Route path="feedback" element={<FeedbackList />} />
        <Route path="*" element={<NotBuilt />} />
      </Routes>
    </div>
  );
}
