// The Golden Tickets modal, opened from the top bar's ticket icon (accounts spec §2): the user's tickets, available
// and redeemed. Redeeming runs through use-redemption.ts (the shared redemption machine and its timings).
import { useTickets } from '../api/queries.js';
import { Alert } from '../ui/alert.js';
import { Modal } from '../ui/modal.js';
import { Spinner } from '../ui/spinner.js';
import { TICKETS_TEXT as T } from './tickets-text.js';
import './golden-tickets-modal.css';

export function GoldenTicketsModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const tickets = useTickets(open);
  const list = tickets.data ?? [];
  const available = list.filter((t) => !t.is_redeemed);
  const redeemed = list.filter((t) => t.is_redeemed);
  return (
    <Modal open={open} onClose={onClose} title={T.title} maxWidth={640} testId="golden-tickets">
      <p className="tickets__subtitle">{T.subtitle}</p>
      {tickets.isPending ? <div className="tickets__loading"><Spinner label={T.loading} size={24} /><span aria-hidden="true">{T.loading}</span></div> : null}
      {tickets.isError ? <Alert>{T.error(tickets.error instanceof Error ? tickets.error.message : T.fetchFailed)}</Alert> : null}
      {tickets.isSuccess && list.length === 0 ? (
        <div className="tickets__empty">
          <p className="tickets__empty-title">{T.emptyTitle} — {T.emptyBody}</p>
          <ul>{T.tips.map((tip) => <li key={tip}>{tip}</li>)}</ul>
        </div>
      ) : null}
      {tickets.isSuccess && list.length > 0 ? (
        <>
          <h3 className="tickets__section">{T.available(available.length)}</h3>
          <ul className="tickets__list">{available.map((t) => <li key={t.id} className="tickets__ticket">{t.story.name}</li>)}</ul>
          <h3 className="tickets__section">{T.redeemed(redeemed.length)}</h3>
          <ul className="tickets__list">{redeemed.map((t) => <li key={t.id} className="tickets__ticket tickets__ticket--redeemed">{t.story.name}</li>)}</ul>
        </>
      ) : null}
    </Modal>
  );
}
