// The launch screen (/launch/{storyId}, accounts spec §2 "Launch screen"): first the story's animated title with
// START, which unlocks audio and video; then the story page: name, logo, background, the EN/FR toggle (remembered in
// local storage globally and per story) and the buttons of the run state (FRESH 'start your first game'; ONGOING
// 'continue', 'start a new run', 'reset all progress'; COMPLETED 'start a new run', 'reset all progress').
// Starting or continuing needs the microphone outside the native wrapper, then goes to /game/{id} replacing history.
// 'reset all progress' asks 'Reset All Progress?' first.
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { gamePath, type LaunchAction, RESET_PROGRESS_CONFIRM } from '../../../engine/catalogue/launch.js';
import type { PlayLanguage } from '../../../engine/schema/enums.js';
import { useLaunch, useStartRun, useStory } from '../api/queries.js';
import { Alert } from '../ui/alert.js';
import { Button } from '../ui/button.js';
import { ArrowLeftIcon, PlayIcon } from '../ui/icons.js';
import { Modal } from '../ui/modal.js';
import { setStoryLanguage, storyLanguage } from '../ui/settings.js';
import { Spinner } from '../ui/spinner.js';
import { ensureMicrophone, MICROPHONE_DENIED } from './microphone.js';
import { unlockMedia } from './unlock-media.js';
import './launch-page.css';

export const CREATE_FAILED = 'Failed to create a new game. Please try again.';
export const LAUNCH_TEXT = { start: 'START', language: 'Language', english: 'EN', french: 'FR', back: 'Back to the catalogue' } as const;

function LanguageToggle({ value, onChange }: { value: PlayLanguage; onChange: (l: PlayLanguage) => void }) {
  const options: { lang: PlayLanguage; short: string; name: string }[] = [
    { lang: 'english', short: LAUNCH_TEXT.english, name: 'English' },
    { lang: 'french', short: LAUNCH_TEXT.french, name: 'Français' },
  ];
  return (
    <div className="launch__language" role="radiogroup" aria-label={LAUNCH_TEXT.language}>
      {options.map((o) => (
        <button key={o.lang} type="button" role="radio" aria-checked={value === o.lang} aria-label={o.name} className="launch__language-option" onClick={() => onChange(o.lang)} data-testid={`language-${o.lang}`}>
          {o.short}
        </button>
      ))}
    </div>
  );
}

export function LaunchPage() {
  const { storyId = '' } = useParams();
  const navigate = useNavigate();
  const story = useStory(storyId);
  const launch = useLaunch(storyId);
  const start = useStartRun(storyId);
  const [started, setStarted] = useState(false);
  const [language, setLanguage] = useState<PlayLanguage>(() => storyLanguage(storyId));
  const [confirmReset, setConfirmReset] = useState(false);
  const [micDenied, setMicDenied] = useState(false);
  const [checkingMic, setCheckingMic] = useState<LaunchAction | null>(null);

  const chooseLanguage = (l: PlayLanguage) => {
    setLanguage(l);
    setStoryLanguage(storyId, l);
  };

  const begin = async (action: LaunchAction, reset = false) => {
    const l = launch.data;
    if (!l) return;
    setMicDenied(false);
    setCheckingMic(action);
    const mic = await ensureMicrophone();
    setCheckingMic(null);
    if (!mic) {
      setMicDenied(true);
      return;
    }
    if (action === 'continue' && l.continue_player_story_id) {
      void navigate(gamePath(l.continue_player_story_id), { replace: true });
      return;
    }
    start.mutate({ language, reset }, { onSuccess: (run) => void navigate(gamePath(run.id), { replace: true }) });
  };

  const act = (action: LaunchAction) => {
    if (action === 'reset') setConfirmReset(true);
    else void begin(action);
  };

  const s = story.data?.story;
  // The run state read on THIS visit: a cached one (FRESH before the run just started) could offer the wrong buttons.
  const launchReady = launch.data !== undefined && launch.isFetchedAfterMount;
  const busyAction = checkingMic ?? (start.isPending ? (start.variables.reset ? 'reset' : launch.data?.buttons[0]?.action ?? null) : null);
  return (
    <main id="main" className="launch" data-phase={started ? 'story' : 'intro'} style={s?.text_rgba_color ? { color: s.text_rgba_color } : undefined}>
      {s ? <img className="launch__art" src={s.background_image} alt="" /> : null}
      <div className="launch__shade" aria-hidden="true" />
      {!started ? (
        <div className="launch__intro">
          {story.isPending ? <Spinner /> : null}
          {story.isError ? <Alert>{story.error.message}</Alert> : null}
          {s ? (
            <>
              <img className="launch__intro-logo" src={s.story_logo_image} alt="" />
              <h1 className="launch__intro-title" aria-label={s.name}>
                {s.name.split(' ').map((word, i) => (
                  <span key={`${word}-${i}`} className="launch__intro-word" style={{ animationDelay: `${i * 120}ms` }} aria-hidden="true">{word}</span>
                ))}
              </h1>
              <Button variant="primary" size="lg" className="launch__start" icon={<PlayIcon width={18} height={18} />} onClick={() => { unlockMedia(); setStarted(true); }} data-autofocus>
                {LAUNCH_TEXT.start}
              </Button>
            </>
          ) : null}
          <Button variant="ghost" icon={<ArrowLeftIcon width={16} height={16} />} onClick={() => void navigate('/browse')}>{LAUNCH_TEXT.back}</Button>
        </div>
      ) : (
        <div className="launch__content">
          {s ? (
            <>
              <img className="launch__logo" src={s.story_logo_image} alt="" />
              <h1 className="launch__title">{s.name}</h1>
              <p className="launch__description">{s.catalogue_description}</p>
            </>
          ) : null}
          <LanguageToggle value={language} onChange={chooseLanguage} />
          {!launchReady && !launch.isError ? <Spinner /> : null}
          {launch.isError ? <Alert>{launch.error.message}</Alert> : null}
          {launch.data && launchReady ? (
            <div className="launch__buttons" data-testid="launch-buttons" data-state={launch.data.state}>
              {launch.data.buttons.map((b, i) => (
                <Button key={b.action} variant={i === 0 ? 'primary' : b.action === 'reset' ? 'danger' : 'secondary'} size="lg" busy={busyAction === b.action} disabled={busyAction !== null} onClick={() => act(b.action)}>
                  {b.label}
                </Button>
              ))}
            </div>
          ) : null}
          {launch.data && launch.data.runs > 0 ? (
            <p className="launch__runs">{launch.data.runs === 1 ? '1 run' : `${launch.data.runs} runs`}{launch.data.best_rank ? ` · best rank ${launch.data.best_rank}` : ''}</p>
          ) : null}
          {micDenied ? <Alert>{MICROPHONE_DENIED}</Alert> : null}
          {start.isError ? <Alert>{start.variables.reset ? start.error.message : CREATE_FAILED}</Alert> : null}
          <Button variant="ghost" icon={<ArrowLeftIcon width={16} height={16} />} onClick={() => void navigate('/browse')}>{LAUNCH_TEXT.back}</Button>
        </div>
      )}
      <Modal open={confirmReset} onClose={() => setConfirmReset(false)} title={RESET_PROGRESS_CONFIRM.title} maxWidth={460} testId="reset-confirm">
        <p className="launch__confirm-body">{RESET_PROGRESS_CONFIRM.body}</p>
        <div className="launch__confirm-actions">
          <Button variant="secondary" onClick={() => setConfirmReset(false)} data-autofocus>{RESET_PROGRESS_CONFIRM.cancel}</Button>
          <Button variant="danger" onClick={() => { setConfirmReset(false); void begin('reset', true); }}>{RESET_PROGRESS_CONFIRM.confirm}</Button>
        </div>
      </Modal>
    </main>
  );
}
