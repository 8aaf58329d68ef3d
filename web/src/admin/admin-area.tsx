// The admin area (accounts spec §2 "Admin routes"), loaded lazily so the catalogue never ships it. Phase 1: the
// stories list and a story's moments; the studio (characters, items, places, the flow graph, prompts, evaluations,
// metrics) grows here.
import { Link, Route, Routes, useParams } from 'react-router-dom';
import { useStories, useStory } from '../api/queries.js';
import { useSession } from '../auth/session.js';
import { Alert } from '../ui/alert.js';
import { Spinner } from '../ui/spinner.js';
import './admin-area.css';

function StoriesList() {
  const { state } = useSession();
  const stories = useStories(state.status === 'signed_in' ? state.userId : null);
  return (
    <section>
      <h1>Stories</h1>
      {stories.isPending ? <Spinner /> : null}
      {stories.isError ? <Alert>{stories.error.message}</Alert> : null}
      <ul className="admin__list">
        {(stories.data ?? []).map((s) => (
          <li key={s.id}><Link to={`stories/${s.id}`}>{s.name}</Link> <span className="admin__muted">{s.id}</span></li>
        ))}
      </ul>
    </section>
  );
}

function StoryDetail() {
  const { storyId = '' } = useParams();
  const story = useStory(storyId);
  return (
    <section>
      <p><Link to="/admin">Stories</Link></p>
      {story.isPending ? <Spinner /> : null}
      {story.isError ? <Alert>{story.error.message}</Alert> : null}
      {story.data ? (
        <>
          <h1>{story.data.story.name}</h1>
          <h2>Moments</h2>
          <ol className="admin__list">{story.data.moments.map((m) => <li key={m.id}>{m.name} <span className="admin__muted">{m.type}</span></li>)}</ol>
        </>
      ) : null}
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

export default function AdminArea() {
  return (
    <div className="page admin">
      <Routes>
        <Route index element={<StoriesList />} />
        <Route path="stories/:storyId" element={<StoryDetail />} />
        <Route path="*" element={<NotBuilt />} />
      </Routes>
    </div>
  );
}
