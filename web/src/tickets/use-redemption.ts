// One ticket's redemption in React: the shared RedemptionRunner (engine/client) on the browser's clock, its cards and
// redeem call through the API client, the ticket list refetched after a success. The modal draws `view` and calls
// the runner's methods (redeem, choose, confirm, cancel, reset); it never times anything itself. Give the component
// that calls this a `key` of the ticket id: a runner belongs to one ticket.
import { useQueryClient } from '@tanstack/react-query';
import { useState, useSyncExternalStore } from 'react';
import { RedemptionRunner, type RedemptionView } from '../../../engine/client/redemption-runner.js';
import { api, browserClock } from '../api/client.js';
import { queryKeys } from '../api/queries.js';

export function useRedemption(ticketId: string): { view: RedemptionView; runner: RedemptionRunner } {
  const qc = useQueryClient();
  const [runner] = useState(() => new RedemptionRunner(ticketId, {
    api,
    clock: browserClock,
    refetchTickets: () => void Promise.all([
      qc.invalidateQueries({ queryKey: queryKeys.tickets }),
      qc.invalidateQueries({ queryKey: queryKeys.permanentCharacters }),
    ]),
    log: (message) => console.warn(`redemption: ${message}`),
  }));
  const view = useSyncExternalStore(runner.subscribe, runner.getView);
  return { view, runner };
}
