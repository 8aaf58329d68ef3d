// One available golden ticket (accounts spec §2 "Golden Ticket modal", §4 "Redemption flow states"): Redeem reads
// 'Redeeming...' and is disabled while the ticket burns (2000 ms); then the picker shows 'Loading your cards...'
// (retrieving at 1500 ms, selecting 2500 ms later), the run's characters and items, and a confirmation. No game data:
// 'No game data found' with 'You may need to play this story first.'; none to show: 'No characters or items to
// display'. A failed redemption goes back to selecting with no message (the spec's rule). The machine is shared
// (engine/client/redemption-flow.ts); this component only draws it.
import { useSyncExternalStore } from 'react';
import { cardKey, hasCards, type RedemptionRunner } from '../../../engine/client/redemption-runner.js';
import { redeemButton, showsPicker } from '../../../engine/client/redemption-flow.js';
import type { TicketWithStory } from '../../../engine/schema/player.js';
import type { TicketCards } from '../../../engine/schema/views.js';
import { Alert } from '../ui/alert.js';
import { Button } from '../ui/button.js';
import { Spinner } from '../ui/spinner.js';
import { TICKETS_TEXT as T } from './tickets-text.js';

type Choice = { kind: 'character' | 'item'; id: string; name: string; detail: string };

function choices(cards: TicketCards): Choice[] {
  return [
    ...cards.characters.filter((c) => c.character_id && c.character_name).map((c) => ({
      kind: 'character' as const, id: c.character_id, name: c.character_name,
      detail: `Character · ${c.character_current_attack} attack · ${c.character_current_health} health${c.equipped_items.length ? ` · ${c.equipped_items.length} item${c.equipped_items.length === 1 ? '' : 's'}` : ''}`,
    })),
    ...cards.items.filter((i) => i.available_item_id).map((i) => ({
      kind: 'item' as const, id: i.available_item_id, name: i.available_item_name,
      detail: `Item · +${i.available_item_attack_bonus} attack · +${i.available_item_defense_bonus} defense`,
    })),
  ];
}

export function TicketCard({ ticket, logo, runner, onChose }: { ticket: TicketWithStory; logo: string | null; runner: RedemptionRunner; onChose: (name: string) => void }) {
  const view = useSyncExternalStore(runner.subscribe, runner.getView);
  const { flow, cards } = view;
  const button = redeemButton(flow);
  const picker = showsPicker(flow);
  const list = cards.status === 'loaded' ? choices(cards.cards) : [];
  const selected = list.find((c) => cardKey(c) === flow.selectedCardId) ?? null;
  const earned = new Date(ticket.earned_at);
  return (
    <li className={`tickets__ticket tickets__ticket--available${flow.step === 'burning' ? ' tickets__ticket--burning' : ''}`} data-testid="ticket" data-state={flow.state} data-step={flow.step}>
      <div className="tickets__ticket-head">
        {logo ? <img className="tickets__logo" src={logo} alt="" /> : <span className="tickets__logo" aria-hidden="true" />}
        <div className="tickets__ticket-text">
          <span className="tickets__story">{ticket.story.name}</span>
          <span className="tickets__earned">Earned {Number.isNaN(earned.getTime()) ? ticket.earned_at : earned.toLocaleDateString()}</span>
        </div>
        {button && !picker ? <Button variant="primary" size="sm" disabled={button.disabled} aria-busy={button.disabled || undefined} onClick={() => runner.redeem()}>{button.label}</Button> : null}
        {picker ? <Button variant="ghost" size="sm" onClick={() => runner.reset()} disabled={flow.state === 'creating'}>Close</Button> : null}
      </div>
      {picker ? (
        <div className="tickets__picker" data-testid="ticket-picker">
          {flow.state === 'retrieving' || cards.status === 'loading' ? (
            <p className="tickets__loading"><Spinner size={20} label={T.loadingCards} /><span aria-hidden="true">{T.loadingCards}</span></p>
          ) : null}
          {flow.state !== 'retrieving' && cards.status === 'failed' ? <Alert>{cards.message}</Alert> : null}
          {flow.state !== 'retrieving' && cards.status === 'loaded' && cards.cards.player_story_id === null ? (
            <div className="tickets__none"><p>{T.noGameData}</p><p className="tickets__hint">{T.noGameDataHint}</p></div>
          ) : null}
          {flow.state !== 'retrieving' && cards.status === 'loaded' && cards.cards.player_story_id !== null && !hasCards(cards.cards) ? <p className="tickets__none">{T.noCards}</p> : null}
          {flow.state !== 'retrieving' && list.length > 0 ? (
            <>
              <p className="tickets__pick-title" id={`pick-${ticket.id}`}>{T.pickTitle}</p>
              <ul className="tickets__cards" aria-labelledby={`pick-${ticket.id}`}>
                {list.map((c) => {
                  const key = cardKey(c);
                  const isSelected = flow.selectedCardId === key;
                  return (
                    <li key={key}>
                      <button type="button" className={`tickets__card${isSelected ? ' tickets__card--selected' : ''}`} aria-pressed={isSelected} disabled={flow.state !== 'selecting'} onClick={() => { onChose(c.name); runner.choose(c); }} data-testid="ticket-choice">
                        <span className="tickets__card-name">{c.name}</span>
                        <span className="tickets__card-detail">{c.detail}</span>
                      </button>
                    </li>
                  );
                })}
              </ul>
            </>
          ) : null}
          {(flow.state === 'confirming' || flow.state === 'creating') && selected ? (
            <div className="tickets__confirm" role="group" aria-label="Confirm">
              <p>{T.confirm(selected.name)}</p>
              <div className="tickets__confirm-actions">
                <Button variant="secondary" size="sm" onClick={() => runner.cancel()} disabled={flow.state === 'creating'}>Cancel</Button>
                <Button variant="primary" size="sm" busy={flow.state === 'creating'} busyLabel={T.creating} onClick={() => runner.confirm()} data-autofocus>{T.confirmButton}</Button>
              </div>
            </div>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}
