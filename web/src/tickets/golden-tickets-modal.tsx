// The Golden Tickets modal, opened from the top bar's ticket icon (accounts spec §2): 'Golden Tickets', its subtitle,
// 'Available Tickets (n)' with a Redeem flow per ticket (ticket-card.tsx), 'Redeemed Tickets (n)', the empty state
// with its tips, 'Loading tickets...', 'Error: {message}', and the 3000 ms success banner after a redemption.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useStories, useTickets } from '../api/queries.js';
import { useSession } from '../auth/session.js';
import { Alert } from '../ui/alert.js';
import { Modal } from '../ui/modal.js';
import { Spinner } from '../ui/spinner.js';
import { Redemptions } from './redemptions.js';
import { TicketCard } from './ticket-card.js';
import { TICKETS_TEXT as T } from './tickets-text.js';
import './golden-tickets-modal.css';

function TicketsBody({ redemptions }: { redemptions: Redemptions }) {
  const tickets = useTickets(true);
  // The logo as the catalogue gives it, else the ticket's own (the server sends it as a public URL).
  const { state } = useSession();
  const stories = useStories(state.status === 'signed_in' ? state.userId : null);
  const logos = new Map((stories.data ?? []).map((s) => [s.id, s.story_logo_image]));
  const banner = useSyncExternalStore(redemptions.subscribe, redemptions.banner);
  const list = tickets.data ?? [];
  const available = list.filter((t) => !t.is_redeemed);
  const redeemed = list.filter((t) => t.is_redeemed);
  return (
    <>
      <p className="tickets__subtitle">{T.subtitle}</p>
      {banner ? <div className="tickets__banner" role="status" data-testid="redeemed-banner">{banner}</div> : null}
      {tickets.isPending ? <div className="tickets__loading"><Spinner label={T.loading} size={24} /><span aria-hidden="true">{T.loading}</span></div> : null}
      {tickets.isError ? <Alert>{T.error(tickets.error instanceof Error && tickets.error.message ? tickets.error.message : T.fetchFailed)}</Alert> : null}
      {tickets.isSuccess && list.length === 0 ? (
        <div className="tickets__empty">
          <p className="tickets__empty-title">{T.emptyTitle} — {T.emptyBody}</p>
          <ul>{T.tips.map((tip) => <li key={tip}>{tip}</li>)}</ul>
        </div>
      ) : null}
      {tickets.isSuccess && list.length > 0 ? (
        <>
          <h3 className="tickets__section">{T.available(available.length)}</h3>
          <ul className="tickets__list" data-testid="available-tickets">
            {available.map((t) => <TicketCard key={t.id} ticket={t} logo={logos.get(t.blueprint_story_id) ?? t.story.story_logo_image} runner={redemptions.runner(t.id)} onChose={(name) => redemptions.chose(t.id, name)} />)}
          </ul>
          <h3 className="tickets__section">{T.redeemed(redeemed.length)}</h3>
          <ul className="tickets__list" data-testid="redeemed-tickets">
            {redeemed.map((t) => (
              <li key={t.id} className="tickets__ticket tickets__ticket--redeemed">
                <div className="tickets__ticket-head">
                  <img className="tickets__logo" src={logos.get(t.blueprint_story_id) ?? t.story.story_logo_image} alt="" />
                  <div className="tickets__ticket-text">
                    <span className="tickets__story">{t.story.name}</span>
                    <span className="tickets__earned">Redeemed {t.redeemed_at ? new Date(t.redeemed_at).toLocaleDateString() : ''}</span>
                  </div>
                </div>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </>
  );
}

export function GoldenTicketsModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const qc = useQueryClient();
  // One set of redemptions per opening: closing the modal abandons what was under way (timers stop).
  const [redemptions, setRedemptions] = useState<Redemptions | null>(null);
  if (open && redemptions === null) setRedemptions(new Redemptions(qc));
  if (!open && redemptions !== null) setRedemptions(null);
  useEffect(() => () => redemptions?.dispose(), [redemptions]);
  return (
    <Modal open={open} onClose={onClose} title={T.title} maxWidth={640} testId="golden-tickets">
      {redemptions ? <TicketsBody redemptions={redemptions} /> : null}
    </Modal>
  );
}
