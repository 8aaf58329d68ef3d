// The personal catalogue (/browse signed in, accounts spec §2): every story of the ratings view, newest first; a card
// leads to the story's launch screen.
import { useNavigate } from 'react-router-dom';
import { useStories } from '../api/queries.js';
import { useSession } from '../auth/session.js';
import { Alert } from '../ui/alert.js';
import { Spinner } from '../ui/spinner.js';
import { CATALOGUE_TEXT as T } from './catalogue-text.js';
import { StoryCard } from './story-card.js';
import './catalogue.css';

export function PersonalCatalogue() {
  const session = useSession();
  const userId = session.state.status === 'signed_in' ? session.state.userId : null;
  const stories = useStories(userId);
  const navigate = useNavigate();
  const list = stories.data ?? [];
  return (
    <div className="catalogue page" data-testid="personal-catalogue">
      <h1 className="catalogue-section__title" id="trending">{T.trendingNow}</h1>
      {stories.isPending ? <div className="catalogue__status"><Spinner label={T.loading} /><span aria-hidden="true">{T.loading}</span></div> : null}
      {stories.isError ? <Alert>{T.loadFailed}</Alert> : null}
      {stories.isSuccess && list.length === 0 ? <p className="catalogue__status">{T.noneAvailable}</p> : null}
      <ul className="catalogue-grid" aria-labelledby="trending">
        {list.map((s) => (
          <li key={s.id}>
            <StoryCard story={s} onOpen={(story) => void navigate(`/launch/${story.id}`)} />
          </li>
        ))}
      </ul>
    </div>
  );
}
