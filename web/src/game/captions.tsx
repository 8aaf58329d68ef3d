// The captions (game spec §4 via issue #10): the words the server heard from the player and the character's line.
// A recogniser miss ("Sorry, I didn't catch that.") shows here as a hint, not as an error dialog.
import type { PlayModel } from '../../../engine/client/game-screen/model.js';
import { speakerText } from '../../../engine/client/game-screen/text.js';
import { isNotCaught } from '../../../engine/protocol/turn-errors.js';
import { GAME_TEXT } from './game-text.js';

export function Captions({ m, speaker, onChoice }: { m: PlayModel; speaker: string | null; onChoice: (text: string) => void }) {
  const lastCharacter = [...m.lines].reverse().find((l) => l.who === 'character');
  const lastPlayer = [...m.lines].reverse().find((l) => l.who === 'player');
  const miss = m.error && isNotCaught(m.error) ? m.error : null;
  // Miss hints (#13): the last answer was not caught; the hint says what can be said, and from the second miss on the
  // choices can be said or tapped (a tap sends the choice as typed input).
  const notCaught = m.lastOutput?.not_caught ?? null;
  return (
    <div className="captions" aria-live="polite">
      {lastPlayer ? (
        <p className={`caption caption--player${lastPlayer.pending ? ' is-pending' : ''}`} data-testid="caption-player">
          <span className="caption__who">{GAME_TEXT.you}</span>
          {lastPlayer.text}
        </p>
      ) : null}
      {lastCharacter ? (
        <p className="caption caption--character" data-testid="caption-character">
          <span className="caption__who">{speakerText(lastCharacter.name ?? speaker)}</span>
          {lastCharacter.text}
        </p>
      ) : null}
      {notCaught ? (
        <div className="caption caption--miss" data-testid="caption-hint" role="status">
          <p className="caption__hint">{notCaught.hint}</p>
          {notCaught.choices.length ? (
            <div className="caption__choices">
              {notCaught.choices.map((c) => (
                <button key={c.text} type="button" className="game-button caption__choice" data-testid="miss-choice" onClick={() => onChoice(c.text)}>{c.text}</button>
              ))}
            </div>
          ) : null}
        </div>
      ) : null}
      {miss ? <p className="caption caption--miss" data-testid="caption-miss" role="status">{miss}</p> : null}
    </div>
  );
}
