// /game/{playerStoryId}, phase 1: the run this page is for (story, run number, current moment) and the way back to
// its launch screen. The game screen itself (issue #10) renders the shared engine/client/game-screen model here,
// driven by the controller over the app's realtime link (api/client.ts openGameLink).
import { Link, useParams } from 'react-router-dom';
import { runLabel } from '../../../engine/catalogue/launch.js';
import { usePlayerStory, useStory } from '../api/queries.js';
import { Alert } from '../ui/alert.js';
import { buttonClass } from '../ui/button.js';
import { Spinner } from '../ui/spinner.js';
import './game-page.css';

export default function GamePage() {
  const { playerStoryId = '' } = useParams();
  const run = usePlayerStory(playerStoryId);
  const storyId = run.data?.blueprint_story_id ?? '';
  const story = useStory(storyId);
  return (
    <main id="main" className="game-page" data-testid="game-screen">
      {run.isPending ? <Spinner /> : null}
      {run.isError ? <Alert>{run.error.message}</Alert> : null}
      {run.data ? (
        <div className="game-page__card">
          <p className="game-page__eyebrow">{story.data?.story.name ?? ''}</p>
          <h1 className="game-page__title">{runLabel(run.data.loop_number)}</h1>
          <p className="game-page__text">The game screen opens here.</p>
          <Link className={buttonClass('secondary')} to={`/launch/${storyId}`}>Back to the story</Link>
        </div>
      ) : null}
    </main>
  );
}
