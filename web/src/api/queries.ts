// Server state for every screen, through TanStack Query over the one API client: screens call these hooks and never
// fetch in effects by hand. Keys are arrays under `queryKeys` so a mutation can invalidate exactly what it changed.
import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PlayLanguage } from '../../../engine/schema/enums.js';
import type { FeedbackInput, RedeemCard } from '../../../engine/client/api/http.js';
import { api } from './client.js';

export const queryKeys = {
  staticCatalogue: ['catalogue', 'static'] as const,
  stories: (userId: string | null) => ['stories', userId] as const,
  story: (storyId: string) => ['story', storyId] as const,
  progress: (userId: string | null) => ['progress', userId] as const,
  launch: (storyId: string) => ['launch', storyId] as const,
  playerStory: (id: string) => ['player-story', id] as const,
  tickets: ['tickets'] as const,
  ticketCards: (ticketId: string) => ['ticket-cards', ticketId] as const,
  permanentCharacters: ['permanent-characters'] as const,
  authSettings: ['auth-settings'] as const,
  me: (userId: string | null) => ['me', userId] as const,
  adminFeedback: ['admin', 'feedback'] as const,
};

/** The public catalogue (signed out): /data/catalogue.json, stories and lastUpdated. */
export const staticCatalogueQuery = queryOptions({ queryKey: queryKeys.staticCatalogue, queryFn: () => api.staticCatalogue(), staleTime: 5 * 60_000 });

/** The personal catalogue: the ratings view, newest first, with user_started for the signed-in user. */
export const storiesQuery = (userId: string | null) => queryOptions({ queryKey: queryKeys.stories(userId), queryFn: () => api.stories(), staleTime: 60_000 });

export const storyQuery = (storyId: string) => queryOptions({ queryKey: queryKeys.story(storyId), queryFn: () => api.story(storyId), staleTime: 5 * 60_000 });

/** The launch screen's state (FRESH / ONGOING / COMPLETED); always fresh when the screen opens. */
export const launchQuery = (storyId: string) => queryOptions({ queryKey: queryKeys.launch(storyId), queryFn: () => api.launch(storyId), staleTime: 0 });

export const playerStoryQuery = (id: string) => queryOptions({ queryKey: queryKeys.playerStory(id), queryFn: () => api.playerStory(id) });

export const ticketsQuery = queryOptions({ queryKey: queryKeys.tickets, queryFn: () => api.tickets(), staleTime: 30_000 });

export const ticketCardsQuery = (ticketId: string) => queryOptions({ queryKey: queryKeys.ticketCards(ticketId), queryFn: () => api.ticketCards(ticketId) });

export const permanentCharactersQuery = queryOptions({ queryKey: queryKeys.permanentCharacters, queryFn: () => api.permanentCharacters() });

/** Which sign-in providers the server offers (Google only when it is configured). */
export const authSettingsQuery = queryOptions({ queryKey: queryKeys.authSettings, queryFn: () => api.authSettings(), staleTime: Infinity, retry: 1 });

export const useStaticCatalogue = () => useQuery(staticCatalogueQuery);
export const useStories = (userId: string | null) => useQuery(storiesQuery(userId));
/** Asks nothing until the id is known (the game page reads it from the run first): GET /api/stories/ would be a 400. */
export const useStory = (storyId: string) => useQuery({ ...storyQuery(storyId), enabled: storyId !== '' });
/** The signed-in player's progress per started story (the Continue row, the profile page). */
export const useProgress = (userId: string | null) => useQuery({ queryKey: queryKeys.progress(userId), queryFn: () => api.progress(), enabled: userId !== null, staleTime: 30_000 });
export const useLaunch = (storyId: string) => useQuery(launchQuery(storyId));
export const usePlayerStory = (id: string) => useQuery(playerStoryQuery(id));
export const useTickets = (enabled = true) => useQuery({ ...ticketsQuery, enabled });
export const useTicketCards = (ticketId: string) => useQuery(ticketCardsQuery(ticketId));
export const usePermanentCharacters = () => useQuery(permanentCharactersQuery);
export const useAuthSettings = () => useQuery(authSettingsQuery);
/** Who is signed in, and whether they are an admin. */
export const useMe = (userId: string | null) => useQuery({ queryKey: queryKeys.me(userId), queryFn: () => api.me(), enabled: userId !== null, staleTime: 5 * 60_000 });
export const useAdminFeedback = (enabled: boolean) => useQuery({ queryKey: queryKeys.adminFeedback, queryFn: () => api.adminFeedback(100), enabled });

export function useSendFeedback() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (f: FeedbackInput) => api.sendFeedback(f), onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.adminFeedback }) });
}

/** Starts a run (start_first / new_run) or resets all progress then starts one; the launch state is stale after. */
export function useStartRun(storyId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ language, reset }: { language: PlayLanguage; reset: boolean }) => (reset ? api.resetProgress(storyId, language) : api.createRun(storyId, language)),
    onSuccess: () => invalidateRuns(qc, storyId),
  });
}

export function useEndRun(storyId: string) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (playerStoryId: string) => api.endRun(playerStoryId), onSuccess: () => invalidateRuns(qc, storyId) });
}

export function useRedeemTicket() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ ticketId, card }: { ticketId: string; card: RedeemCard }) => api.redeemTicket(ticketId, card),
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: queryKeys.tickets }), qc.invalidateQueries({ queryKey: queryKeys.permanentCharacters })]),
  });
}

/** After a run starts, ends or is reset: the launch state and the catalogue's user_started flags change. */
export function invalidateRuns(qc: QueryClient, storyId: string): Promise<void> {
  return Promise.all([
    qc.invalidateQueries({ queryKey: queryKeys.launch(storyId) }),
    qc.invalidateQueries({ queryKey: ['stories'] }),
    qc.invalidateQueries({ queryKey: ['progress'] }),
  ]).then(() => undefined);
}
