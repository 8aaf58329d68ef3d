// /game/{playerStoryId} (game spec §2): the run's game modal over the page. With no active game (the run is over and
// nothing is pending) it goes to the story's launch screen. Closing the modal stops all audio, resets the game state
// and goes back to the launch screen.
import { Navigate, useNavigate, useParams } from 'react-router-dom';
import { usePlayerStory, useStory } from '../api/queries.js';
import { Alert } from '../ui/alert.js';
import { buttonClass } from '../ui/button.js';
import { Spinner } from '../ui/spinner.js';
import { GameModal } from './game-modal.js';
import { GameScreen } from './game-screen.js';
import { closeGameSession, hasGameSession } from './use-game-session.js';
import './game-page.css';

export default function GamePage() {
  const { playerStoryId = '' } = useParams();
  const navigate = useNavigate();
  const run = usePlayerStory(playerStoryId);
  const storyId = run.data?.blueprint_story_id ?? '';
  const story = useStory(storyId);
  const close = () => {
    closeGameSession(playerStoryId);
    void navigate(`/launch/${storyId}`);
  };
  // Opened on a run that is over, with no game of it on screen: nothing to play, the launch screen decides.
  if (run.data && run.data.loop_status !== 'loopStatusOnGoing' && !hasGameSession(run.data.id)) {
    return <Navigate to={`/launch/${run.data.blueprint_story_id}`} replace />;
  }
  return (
    <main id="main" className="game-page">
      {run.isPending || (run.data && story.isPending) ? <Spinner /> : null}
      {run.isError ? (
        <div className="game-page__card">
          <Alert>{run.error.message}</Alert>
          <a className={buttonClass('secondary')} href="/browse">Back to the catalogue</a>
        </div>
      ) : null}
      {run.data && story.data ? (
        <GameModal onClose={close} title={story.data.story.name}>
          <GameScreen key={run.data.id} run={run.data} storyName={story.data.story.name} onLeave={close} />
        </GameModal>
      ) : null}
    </main>
  );
}
