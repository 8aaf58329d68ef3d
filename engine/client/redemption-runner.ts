// One golden ticket being redeemed, for any client: the redemption machine (redemption-flow.ts) with its effects
// carried out through the API (the picker's cards, the redeem call) and its timers on an injected clock. The web
// app's tickets modal draws `state` and calls the methods; it never times anything itself.
import type { Api, RedeemCard } from './api/http.js';
import type { Clock } from './clock.js';
import { TimerHost } from './clock.js';
import {
  initialRedemption, type Redemption, type RedemptionEffect, type RedemptionEvent, transitionRedemption,
} from './redemption-flow.js';
import type { TicketCards } from '../schema/views.js';

/** The picker's cards: loading, loaded, or failed with a message (accounts spec §8 'Failed to fetch game data: ...'). */
export type CardsLoad = { status: 'idle' } | { status: 'loading' } | { status: 'loaded'; cards: TicketCards } | { status: 'failed'; message: string };

export interface RedemptionView {
  readonly flow: Redemption;
  readonly cards: CardsLoad;
  /** The last refusal or logged failure (logged only: the spec shows no message for redeem errors). */
  readonly lastProblem: string | null;
}

/** A card id in the machine is `character:<uuid>` or `item:<uuid>`: the picker offers both kinds. */
export function cardKey(card: RedeemCard): string {
  return `${card.kind}:${card.id}`;
}

export function parseCardKey(key: string): RedeemCard | null {
  const m = /^(character|item):(.+)$/.exec(key);
  return m ? { kind: m[1] as RedeemCard['kind'], id: m[2] as string } : null;
}

/** A game view counts as having cards with at least one character or one item (accounts spec §5). */
export function hasCards(cards: TicketCards): boolean {
  return cards.characters.some((c) => c.character_id && c.character_name) || cards.items.some((i) => i.available_item_id);
}

export type RedemptionPorts = {
  api: Pick<Api, 'ticketCards' | 'redeemTicket'>;
  clock: Clock;
  /** The ticket list is stale (a query invalidation in the web app). */
  refetchTickets: () => void;
  onChange?: (view: RedemptionView) => void;
  log?: (message: string) => void;
};

export class RedemptionRunner {
  #view: RedemptionView;
  readonly #timers: TimerHost;
  readonly #listeners = new Set<() => void>();
  #disposed = false;

  constructor(readonly ticketId: string, readonly ports: RedemptionPorts) {
    this.#view = { flow: initialRedemption(ticketId), cards: { status: 'idle' }, lastProblem: null };
    this.#timers = new TimerHost(ports.clock, (key) => this.send({ type: 'timer', key }));
  }

  get view(): RedemptionView {
    return this.#view;
  }

  send(event: RedemptionEvent): void {
    if (this.#disposed) return;
    const t = transitionRedemption(this.#view.flow, event);
    this.#set({ ...this.#view, flow: t.state, lastProblem: t.refused ? t.refused.message : this.#view.lastProblem });
    this.#timers.run(t.effects);
    for (const e of t.effects) this.#effect(e);
  }

  redeem(): void {
    this.send({ type: 'redeem' });
  }

  choose(card: RedeemCard): void {
    this.send({ type: 'choose', cardId: cardKey(card) });
  }

  confirm(): void {
    this.send({ type: 'confirm' });
  }

  cancel(): void {
    this.send({ type: 'cancel' });
  }

  reset(): void {
    this.send({ type: 'reset' });
  }

  /**
   * For React's useSyncExternalStore: the view changed. When the last listener leaves (the modal closed), the
   * redemption is abandoned: its timers stop and a late answer changes nothing.
   */
  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    this.#disposed = false;
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) this.dispose();
    };
  };

  getView = (): RedemptionView => this.#view;

  dispose(): void {
    this.#disposed = true;
    this.#timers.clear();
  }

  #set(view: RedemptionView): void {
    this.#view = view;
    this.ports.onChange?.(view);
    for (const l of this.#listeners) l();
  }

  #effect(e: RedemptionEffect): void {
    switch (e.type) {
      case 'start_timer':
      case 'cancel_timer':
        return;
      case 'load_cards':
        this.#set({ ...this.#view, cards: { status: 'loading' } });
        this.ports.api.ticketCards(e.ticketId).then(
          (cards) => !this.#disposed && this.#set({ ...this.#view, cards: { status: 'loaded', cards } }),
          (err: unknown) => !this.#disposed && this.#set({ ...this.#view, cards: { status: 'failed', message: `Failed to fetch game data: ${(err as Error).message}` } }),
        );
        return;
      case 'redeem_card': {
        const card = parseCardKey(e.cardId);
        if (!card) {
          this.send({ type: 'failed', message: 'The card selection must be a non-empty card id.' });
          return;
        }
        this.ports.api.redeemTicket(e.ticketId, card).then(
          () => this.send({ type: 'succeeded' }),
          (err: unknown) => this.send({ type: 'failed', message: (err as Error).message }),
        );
        return;
      }
      case 'refetch_tickets':
        this.ports.refetchTickets();
        return;
      case 'log':
        this.ports.log?.(e.message);
        this.#set({ ...this.#view, lastProblem: e.message });
    }
  }
}
