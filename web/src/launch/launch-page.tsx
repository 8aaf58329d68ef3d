// The launch screen (/launch/{storyId}, accounts spec §2), phase 1: the story, its run state (FRESH / ONGOING /
// COMPLETED) with the spec's buttons, 'Reset All Progress?' confirmed, and navigation to /game/{id} replacing history.
// The animated START title, the EN/FR toggle and the microphone rule come with the launch screen's own issue.
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { gamePath, type LaunchAction, RESET_PROGRESS_CONFIRM } from '../../../engine/catalogue/launch.js';
import { useLaunch, useStartRun, useStory } from '../api/queries.js';
import { Alert } from '../ui/alert.js';
import { Button } from '../ui/button.js';
import { Modal } from '../ui/modal.js';
import { storyLanguage } from '../ui/settings.js';
import { Spinner } from '../ui/spinner.js';
import './launch-page.css';

export const CREATE_FAILED = 'Failed to create a new game. Please try again.';

export function LaunchPage() {
  const { storyId = '' } = useParams();
  const navigate = useNavigate();
  const story = useStory(storyId);
  const launch = useLaunch(storyId);
  const start = useStartRun(storyId);
  const [confirmReset, setConfirmReset] = useState(false);

  const act = (action: LaunchAction) => {
    const l = launch.data;
    if (!l) return;
    if (action === 'continue' && l.continue_player_story_id) {
      void navigate(gamePath(l.continue_player_story_id), { replace: true });
      return;
    }
    if (action === 'reset') {
      setConfirmReset(true);
      return;
    }
    start.mutate({ language: storyLanguage(storyId), reset: false }, { onSuccess: (run) => void navigate(gamePath(run.id), { replace: true }) });
  };

  const reset = () => {
    setConfirmReset(false);
    start.mutate({ language: storyLanguage(storyId), reset: true }, { onSuccess: (run) => void navigate(gamePath(run.id), { replace: true }) });
  };

  const s = story.data?.story;
  return (
    <main id="main" className="launch" style={s ? { color: s.text_rgba_color } : undefined}>
      {s ? <img className="launch__art" src={s.background_image} alt="" /> : null}
      <div className="launch__shade" aria-hidden="true" />
      <div className="launch__content">
        {story.isPending || launch.isPending ? <Spinner /> : null}
        {story.isError ? <Alert>{story.error.message}</Alert> : null}
        {s ? (
          <>
            <img className="launch__logo" src={s.story_logo_image} alt="" />
            <h1 className="launch__title">{s.name}</h1>
            <p className="launch__description">{s.catalogue_description}</p>
          </>
        ) : null}
        {launch.data ? (
          <div className="launch__buttons" data-testid="launch-buttons" data-state={launch.data.state}>
            {launch.data.buttons.map((b, i) => (
              <Button key={b.action} variant={i === 0 ? 'primary' : b.action === 'reset' ? 'danger' : 'secondary'} size="lg" busy={start.isPending && i === 0} onClick={() => act(b.action)}>
                {b.label}
              </Button>
            ))}
          </div>
        ) : null}
        {start.isError ? <Alert>{start.variables.reset ? start.error.message : CREATE_FAILED}</Alert> : null}
        <Button variant="ghost" onClick={() => void navigate('/browse')}>Back to the catalogue</Button>
      </div>
      <Modal open={confirmReset} onClose={() => setConfirmReset(false)} title={RESET_PROGRESS_CONFIRM.title} maxWidth={460}>
        <p className="launch__confirm-body">{RESET_PROGRESS_CONFIRM.body}</p>
        <div className="launch__confirm-actions">
          <Button variant="secondary" onClick={() => setConfirmReset(false)} data-autofocus>{RESET_PROGRESS_CONFIRM.cancel}</Button>
          <Button variant="danger" onClick={reset}>{RESET_PROGRESS_CONFIRM.confirm}</Button>
        </div>
      </Modal>
    </main>
  );
}
