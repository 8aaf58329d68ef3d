// The control bar: the record button of the voice loop (REC / STOP / SKIP, none while the game thinks), the typed
// input that is always there (sent as `transcription`, as long as the server takes, counting down near the limit), and
// the menu button.
import { type FormEvent, useState } from 'react';
import type { PlayModel } from '../../../engine/client/game-screen/model.js';
import { ANSWER_MAX_CHARS, answerCounterText } from '../../../engine/client/game-screen/text.js';
import { voiceButton } from '../../../engine/client/voice-loop.js';
import type { GameSession } from './game-session.js';
import { GAME_TEXT } from './game-text.js';
import { useMicError } from './use-voice.js';

export function ControlBar({ session, m, onMenu }: { session: GameSession; m: PlayModel; onMenu: () => void }) {
  const [text, setText] = useState('');
  const button = voiceButton(m.voice);
  const micError = useMicError(session);
  const counter = answerCounterText(text.length);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    // A complete moment still speaking its last line takes no answer (the server would refuse it): wait for the next.
    if (!text.trim() || m.voice.processing || m.momentComplete) return;
    session.say(text);
    setText('');
  };
  return (
    <div className="control-bar">
      <button
        type="button"
        className={`record-button record-button--${button.state.toLowerCase()}`}
        data-testid="record-button"
        data-state={button.state}
        disabled={!button.enabled}
        onClick={() => session.voiceClick()}
        aria-label={button.label ?? GAME_TEXT.thinking}
      >
        {button.label ? <span>{button.label}</span> : <span className="record-button__dots" aria-hidden="true"><i /><i /><i /></span>}
      </button>
      <form className="control-bar__form" onSubmit={submit}>
        <label className="visually-hidden" htmlFor="game-typed">{GAME_TEXT.typeLabel}</label>
        <input
          id="game-typed"
          className="control-bar__input"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={GAME_TEXT.typePlaceholder}
          autoComplete="off"
          maxLength={ANSWER_MAX_CHARS}
          aria-describedby={counter ? 'game-typed-counter' : undefined}
          data-testid="typed-input"
        />
        <button type="submit" className="game-button game-button--primary" disabled={!text.trim() || m.voice.processing || m.momentComplete}>{GAME_TEXT.send}</button>
      </form>
      <button type="button" className="game-button control-bar__menu" onClick={onMenu} aria-haspopup="dialog">{GAME_TEXT.menu}</button>
      {counter ? <p id="game-typed-counter" className="control-bar__counter" aria-live="polite" data-testid="answer-counter">{counter}</p> : null}
      {micError ? <p className="control-bar__error" role="alert" data-testid="mic-error">{micError}</p> : null}
    </div>
  );
}
