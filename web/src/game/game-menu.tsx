// The game menu (game spec §2): slides up over the whole screen, with its opening and closing sounds; Loop Number,
// the remaining-interactions ring (remaining / maximum), Highest Rank, 'End Current Run' (confirmed with the spec's
// text), and the Characters and Items lists with their empty texts.
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { rankLetterOrDefault } from '../../../engine/catalogue/rank-letter.js';
import { remainingInteractions } from '../../../engine/catalogue/display.js';
import { END_RUN_CONFIRM, MENU_TEXT } from '../../../engine/client/game-screen/menu-text.js';
import type { PlayModel } from '../../../engine/client/game-screen/model.js';
import type { GameSession } from './game-session.js';
import { CardGlyph } from './card-glyph.js';
import { GAME_TEXT } from './game-text.js';
import './game-menu.css';

// The story graph is read and drawn only when the menu opens: its code and data stay out of /game's first load.
const StoryGraph = lazy(() => import('./story-graph.js'));

function Ring({ remaining, max }: { remaining: number; max: number }) {
  const r = 26;
  const c = 2 * Math.PI * r;
  const frac = max > 0 ? remaining / max : 0;
  return (
    <svg className="ring" viewBox="0 0 64 64" width="64" height="64" role="img" aria-label={`${remaining} of ${max}`}>
      <circle cx="32" cy="32" r={r} className="ring__track" />
      <circle cx="32" cy="32" r={r} className="ring__value" strokeDasharray={`${c * frac} ${c}`} transform="rotate(-90 32 32)" />
      <text x="32" y="37" textAnchor="middle" className="ring__text">{remaining}</text>
    </svg>
  );
}

function Avatar({ url, item = false }: { url: string | undefined; item?: boolean }) {
  return (
    <span className={`menu-entry__avatar${item ? ' menu-entry__avatar--item' : ''}`} aria-hidden="true">
      {url ? <img src={url} alt="" loading="lazy" /> : <CardGlyph kind={item ? 'item' : 'character'} className="menu-entry__glyph" />}
    </span>
  );
}

export function GameMenu({ open, session, m, onClose }: { open: boolean; session: GameSession; m: PlayModel; onClose: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const [ending, setEnding] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    panel.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        onClose();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, onClose]);
  if (!open) return null;
  const v = m.view;
  const best = v?.best_rank ?? m.bestRank;
  const end = async () => {
    setEnding(true);
    setFailed(null);
    try {
      await session.endRun();
      setConfirming(false);
      onClose();
    } catch (e) {
      setFailed(e instanceof Error ? e.message : String(e));
    } finally {
      setEnding(false);
    }
  };
  return (
    <div ref={panel} className="game-menu" role="dialog" aria-modal="true" aria-label={GAME_TEXT.menu} tabIndex={-1} data-testid="game-menu" data-game-dialog>
      <div className="game-menu__head">
        <h2 className="game-menu__title">{GAME_TEXT.menu}</h2>
        <button type="button" className="game-button" onClick={onClose}>{GAME_TEXT.closeMenu}</button>
      </div>
      <dl className="game-menu__facts">
        <div><dt>{MENU_TEXT.loopNumber}</dt><dd data-testid="menu-loop">{v?.loop_number ?? 1}</dd></div>
        <div>
          <dt>{MENU_TEXT.remaining}</dt>
          <dd data-testid="menu-remaining"><Ring remaining={remainingInteractions(m.maxInteractions, m.interactions)} max={m.maxInteractions} /></dd>
        </div>
        <div><dt>{MENU_TEXT.highestRank}</dt><dd data-testid="menu-rank">{best ? rankLetterOrDefault(best) : '–'}</dd></div>
      </dl>
      <button type="button" className="game-button game-button--danger game-menu__end" onClick={() => setConfirming(true)}>{MENU_TEXT.endRun}</button>
      {v ? (
        <Suspense fallback={null}>
          <StoryGraph runId={v.player_story_id} version={`${v.blueprint_moment_id}:${m.momentSeq}:${m.interactions}`} />
        </Suspense>
      ) : null}
      <section className="game-menu__list" aria-labelledby="menu-characters">
        <h3 id="menu-characters">{MENU_TEXT.characters}</h3>
        {m.team.length === 0 ? <p className="game-menu__empty">{MENU_TEXT.noCharacters}</p> : (
          <ul>
            {m.team.map((c) => (
              <li key={c.id} className="menu-entry" data-testid="menu-character">
                <Avatar url={v?.card_images[c.id]} />
                <div>
                  <p className="menu-entry__name">{c.name} <small>{c.cardType}</small></p>
                  <p className="menu-entry__meta">{[...c.properties].join(', ')}</p>
                  {c.items.length ? <p className="menu-entry__meta">{GAME_TEXT.equipped}: {c.items.join(', ')}</p> : null}
                </div>
                <p className="menu-entry__stats">{GAME_TEXT.attack} {c.attack} · {GAME_TEXT.health} {Math.max(0, c.health)}/{c.maxHealth}</p>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="game-menu__list" aria-labelledby="menu-items">
        <h3 id="menu-items">{MENU_TEXT.items}</h3>
        {m.items.length === 0 ? <p className="game-menu__empty">{MENU_TEXT.noItems}</p> : (
          <ul>
            {m.items.map((i) => (
              <li key={i.available_item_id} className="menu-entry" data-testid="menu-item">
                <Avatar url={v?.card_images[i.available_item_id]} item />
                <div>
                  <p className="menu-entry__name">{i.available_item_name}</p>
                  <p className="menu-entry__meta">{i.available_item_properties.join(', ')}</p>
                </div>
                <p className="menu-entry__stats">{GAME_TEXT.attack} +{i.available_item_attack_bonus} · {GAME_TEXT.defense} +{i.available_item_defense_bonus}</p>
              </li>
            ))}
          </ul>
        )}
      </section>
      {confirming ? (
        <div className="game-overlay game-overlay--dialog" data-game-dialog>
          <div className="game-dialog" role="alertdialog" aria-modal="true" aria-labelledby="end-run-text" data-testid="end-run-confirm">
            <p id="end-run-text" className="game-dialog__text">{END_RUN_CONFIRM.text}</p>
            {failed ? <p className="game-dialog__error" role="alert">{failed}</p> : null}
            <div className="game-dialog__actions">
              <button type="button" className="game-button" onClick={() => setConfirming(false)}>{END_RUN_CONFIRM.cancel}</button>
              <button type="button" className="game-button game-button--danger" disabled={ending} onClick={() => void end()}>{END_RUN_CONFIRM.confirm}</button>
            </div>
          </div>
        </div>
      ) : null}
    </div>
  );
}
