// The Golden Tickets modal's redemptions: one RedemptionRunner per ticket (engine/client, the shared machine and its
// timings), kept for as long as the modal is open. The set outlives a ticket card: when a redemption succeeds the
// ticket list is refetched and the ticket moves to 'Redeemed Tickets', yet its 3000 ms success banner must still show,
// so the modal reads the banner from here, not from the card.
import type { QueryClient } from '@tanstack/react-query';
import { RedemptionRunner } from '../../../engine/client/redemption-runner.js';
import { api, browserClock } from '../api/client.js';
import { queryKeys } from '../api/queries.js';

export class Redemptions {
  readonly #runners = new Map<string, { runner: RedemptionRunner; off: () => void }>();
  readonly #listeners = new Set<() => void>();
  /** The name of the card each ticket is being redeemed for (for the banner). */
  readonly #chosen = new Map<string, string>();
  #banner: string | null = null;

  constructor(private readonly qc: QueryClient) {}

  runner(ticketId: string): RedemptionRunner {
    const known = this.#runners.get(ticketId);
    if (known) return known.runner;
    const runner = new RedemptionRunner(ticketId, {
      api,
      clock: browserClock,
      refetchTickets: () => void Promise.all([
        this.qc.invalidateQueries({ queryKey: queryKeys.tickets }),
        this.qc.invalidateQueries({ queryKey: queryKeys.permanentCharacters }),
      ]),
      log: (message) => console.warn(`redemption: ${message}`),
    });
    const off = runner.subscribe(() => this.#changed());
    this.#runners.set(ticketId, { runner, off });
    return runner;
  }

  /** Remembers what the player chose, for the success banner's text. */
  chose(ticketId: string, name: string): void {
    this.#chosen.set(ticketId, name);
  }

  /** The success banner's text while one shows (3000 ms, the machine's timer), else null. */
  banner = (): string | null => this.#banner;

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  dispose(): void {
    for (const { off } of this.#runners.values()) off();
    this.#runners.clear();
  }

  #changed(): void {
    let banner: string | null = null;
    for (const [id, { runner }] of this.#runners) {
      if (runner.view.flow.bannerVisible) banner = bannerText(this.#chosen.get(id) ?? null);
    }
    this.#banner = banner;
    for (const l of this.#listeners) l();
  }
}

/** Ours (the spec shows a banner but not its words). */
export function bannerText(name: string | null): string {
  return name ? `${name} is now a permanent card, usable in any story.` : 'Ticket redeemed: your card is now permanent.';
}
