// The game screen (test id game-screen): one of the five sub-screens of the shared model (engine/client/sub-screen),
// the overlays that can show over any of them, and the connection overlay. React only draws the model.
// data-moment-complete: the moment is over but its last line still plays (in_game until it ends; it takes no answer).
import { useEffect } from 'react';
import { subScreenOf } from '../../../engine/client/game-screen/model.js';
import type { PlayLanguage } from '../../../engine/schema/enums.js';
import type { PlayerStory } from '../../../engine/schema/player.js';
import { ConnectionOverlay } from './connection-overlay.js';
import { EndOfMoment, GameOver } from './end-screens.js';
import { ErrorDialog } from './error-dialog.js';
import { GoldenTicketPopup } from './golden-ticket-popup.js';
import { InGame } from './in-game.js';
import { NotificationBanner } from './moment-overlays.js';
import { StartScreen } from './start-screen.js';
import { useGameSession, useNotice, usePlayModel } from './use-game-session.js';
import './game-screen.css';

export function GameScreen({ run, storyName, onLeave }: { run: PlayerStory; storyName: string; onLeave: () => void }) {
  const language: PlayLanguage = run.language === 'french' ? 'french' : 'english';
  const session = useGameSession(run, storyName, language);
  const m = usePlayModel(session);
  const notice = useNotice(session);
  const screen = subScreenOf(m);
  const v = m.view;
  // Notifications show over every sub-screen (a rank reached shows over YOU WON); a perfect answer has its sound.
  const current = m.notifications.current?.notification;
  useEffect(() => {
    if (current?.kind === 'perfect') session.sounds.play('perfect');
  }, [current, session]);
  const style = v ? { '--game-bg': v.background_rgba_color, '--game-text': v.text_rgba_color, '--game-control': v.control_rgba_color } as React.CSSProperties : undefined;
  return (
    <div className="game-screen" data-testid="game-screen" data-sub-screen={screen} data-moment-complete={m.momentComplete ? 'true' : undefined} data-moment-type={v?.moment_type} style={style}>
      {screen === 'start' ? <StartScreen session={session} m={m} language={language} /> : null}
      {screen === 'in_game' ? <InGame session={session} m={m} /> : null}
      {screen === 'end_of_moment' ? <EndOfMoment session={session} m={m} /> : null}
      {screen === 'game_lost' || screen === 'game_won' ? <GameOver session={session} won={screen === 'game_won'} onRestart={onLeave} /> : null}
      <NotificationBanner m={m} onDismiss={() => session.ctrl.dispatch({ type: 'dismiss_notification' })} />
      <GoldenTicketPopup session={session} m={m} />
      <ErrorDialog message={m.error} notice={notice} onDismiss={() => { session.ctrl.dispatch({ type: 'dismiss_error' }); session.clearNotice(); }} />
      <ConnectionOverlay status={m.connection} onRetry={() => session.link.retry()} />
    </div>
  );
}
