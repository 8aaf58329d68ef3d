// The top navigation bar (accounts spec §2): the logo; signed in, the ticket icon with its badge ('9+' above 9) and
// the profile menu; signed out, a Sign in button.
import { Link } from 'react-router-dom';
import { ticketBadge } from '../../../engine/catalogue/display.js';
import { useSignIn } from '../account/sign-in-context.js';
import { useTickets } from '../api/queries.js';
import { useSession } from '../auth/session.js';
import { GoldenTicketsModal } from '../tickets/golden-tickets-modal.js';
import { Button } from '../ui/button.js';
import { LogoMark, TicketIcon } from '../ui/icons.js';
import { ProfileMenu } from './profile-menu.js';
import { useState } from 'react';
import './top-bar.css';

export function TopBar() {
  const { state } = useSession();
  const signedIn = state.status === 'signed_in';
  const openSignIn = useSignIn();
  return (
    <header className="top-bar">
      <div className="top-bar__inner">
        <Link to="/browse" className="top-bar__logo" aria-label="Looptale, the catalogue">
          <LogoMark width={34} height={34} />
          <span className="top-bar__name">Looptale</span>
        </Link>
        <nav className="top-bar__actions" aria-label="Account">
          {signedIn ? (
            <>
              <TicketButton />
              <ProfileMenu email={state.email} />
            </>
          ) : (
            <Button variant="primary" size="sm" onClick={(e) => openSignIn({ origin: e.currentTarget.getBoundingClientRect() })}>Sign in</Button>
          )}
        </nav>
      </div>
    </header>
  );
}

function TicketButton() {
  const tickets = useTickets();
  const [open, setOpen] = useState(false);
  const available = tickets.data?.filter((t) => !t.is_redeemed).length ?? 0;
  const badge = ticketBadge(available);
  return (
    <>
      <button
        type="button"
        className="top-bar__icon-button"
        onClick={() => setOpen(true)}
        aria-label={`Golden Tickets${available ? `: ${available} available` : ''}`}
        data-testid="ticket-button"
      >
        <TicketIcon />
        {badge ? <span className="top-bar__badge" aria-hidden="true">{badge}</span> : null}
      </button>
      <GoldenTicketsModal open={open} onClose={() => setOpen(false)} />
    </>
  );
}
