// The end-of-moment, lost and won sub-screens (game spec §2): 'MOMENT COMPLETE' with 'Start next moment'; 'YOU LOOSE'
// (the spec's spelling) with the losing sound; 'YOU WON'. Restart resets the game and goes to the launch screen.
import { useEffect } from 'react';
import { SUB_SCREEN_TEXT } from '../../../engine/client/sub-screen.js';
import type { PlayModel } from '../../../engine/client/game-screen/model.js';
import { AssembleBanner } from './assemble-banner.js';
import type { GameSession } from './game-session.js';
import './end-screens.css';

export function EndOfMoment({ session, m }: { session: GameSession; m: PlayModel }) {
  return (
    <section className="end-screen end-screen--moment" aria-labelledby="end-title">
      <AssembleBanner m={m} />
      <h2 id="end-title" className="end-screen__title">{SUB_SCREEN_TEXT.momentComplete}</h2>
      <button type="button" className="game-button game-button--primary" onClick={() => session.start()}>{SUB_SCREEN_TEXT.startNextMoment}</button>
    </section>
  );
}

export function GameOver({ session, won, onRestart }: { session: GameSession; won: boolean; onRestart: () => void }) {
  useEffect(() => {
    session.sounds.stop('background');
    if (!won) session.sounds.play('lost');
  }, [session, won]);
  return (
    <section className={`end-screen ${won ? 'end-screen--won' : 'end-screen--lost'}`} aria-labelledby="end-title">
      <h2 id="end-title" className="end-screen__title">{won ? SUB_SCREEN_TEXT.won : SUB_SCREEN_TEXT.lost}</h2>
      <button type="button" className="game-button game-button--primary" onClick={onRestart}>{SUB_SCREEN_TEXT.restart}</button>
    </section>
  );
}
