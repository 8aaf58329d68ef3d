// The golden ticket award popup (game spec §9): shown when the run earned one; closes after 8000 ms with a 500 ms fade
// (the shared machine's timers) or on a backdrop click.
import { GOLDEN_TICKET_TEXT, goldenTicketVisible } from '../../../engine/client/golden-ticket-popup.js';
import type { PlayModel } from '../../../engine/client/game-screen/model.js';
import { TicketIcon } from '../ui/icons.js';
import type { GameSession } from './game-session.js';

export function GoldenTicketPopup({ session, m }: { session: GameSession; m: PlayModel }) {
  if (!goldenTicketVisible(m.goldenTicket)) return null;
  return (
    <div
      className={`game-overlay game-overlay--ticket${m.goldenTicket === 'fading' ? ' is-fading' : ''}`}
      data-testid="golden-ticket-popup"
      onClick={() => session.ctrl.dispatch({ type: 'dismiss_golden_ticket' })}
      role="presentation"
    >
      <div className="golden-ticket" role="status">
        <TicketIcon className="golden-ticket__icon" aria-hidden="true" />
        <h2 className="golden-ticket__title">{GOLDEN_TICKET_TEXT.title}</h2>
        <p className="golden-ticket__body">{GOLDEN_TICKET_TEXT.body}</p>
        <p className="golden-ticket__hint">{GOLDEN_TICKET_TEXT.hint}</p>
      </div>
    </div>
  );
}
