// The start sub-screen: the moment date (animated, EN/FR), the moment name with Start, 'Run n' and 'Beat rank X', in
// the view's colours. Start is the tap that unlocks audio (Safari) and sends the moment's prepared input.
import { runLabel } from '../../../engine/catalogue/launch.js';
import { rankLetterOrDefault } from '../../../engine/catalogue/rank-letter.js';
import { beatRank, type PlayModel } from '../../../engine/client/game-screen/model.js';
import { momentDateText } from '../../../engine/client/game-screen/text.js';
import { SUB_SCREEN_TEXT } from '../../../engine/client/sub-screen.js';
import type { PlayLanguage } from '../../../engine/schema/enums.js';
import { Spinner } from '../ui/spinner.js';
import type { GameSession } from './game-session.js';
import { GAME_TEXT } from './game-text.js';
import { mediaUrl } from './media.js';
import './start-screen.css';

export function StartScreen({ session, m, language }: { session: GameSession; m: PlayModel; language: PlayLanguage }) {
  const v = m.view;
  if (!v) return <div className="start-screen"><Spinner /></div>;
  const date = momentDateText(v.moment_date, language);
  const bg = mediaUrl(v.blueprint_story_id, v.place_image_details[0]?.media_url ?? v.moment_image_details[0]?.media_url);
  const busy = m.voice.processing;
  return (
    <section className="start-screen" aria-labelledby="moment-name">
      {bg ? <img className="start-screen__art" src={bg} alt="" /> : null}
      <div className="start-screen__shade" aria-hidden="true" />
      <div className="start-screen__content">
        {/* The date arrives letter by letter; a screen reader reads it whole from the hidden copy. */}
        <p className="start-screen__date" data-testid="moment-date">
          <span className="visually-hidden">{date}</span>
          {[...date].map((ch, i) => (
            <span key={i} aria-hidden="true" style={{ animationDelay: `${i * 35}ms` }}>{ch}</span>
          ))}
        </p>
        <h2 id="moment-name" className="start-screen__name">{v.moment_name}</h2>
        <button type="button" className="game-button game-button--primary start-screen__start" disabled={busy} onClick={() => session.start()} data-autofocus>
          {busy ? <Spinner size={16} /> : null}
          {SUB_SCREEN_TEXT.start}
        </button>
        <div className="start-screen__facts">
          <span>{runLabel(v.loop_number)}</span>
          <span aria-hidden="true">·</span>
          <span>{GAME_TEXT.beatRank(rankLetterOrDefault(beatRank(m)))}</span>
        </div>
      </div>
    </section>
  );
}
