// The Golden Tickets modal's texts (accounts spec §2, §8).
export const TICKETS_TEXT = {
  title: 'Golden Tickets',
  subtitle: 'Earned by achieving Rank A • Redeem to make characters permanent',
  available: (n: number) => `Available Tickets (${n})`,
  redeemed: (n: number) => `Redeemed Tickets (${n})`,
  emptyTitle: 'No Golden Tickets Yet',
  emptyBody: 'Achieve Rank A in any story to earn your first Golden Ticket!',
  tips: ['Complete a story with Rank A', 'One ticket per story (first Rank A only)', 'Use tickets to make characters permanent'],
  loading: 'Loading tickets...',
  error: (message: string) => `Error: ${message}`,
  fetchFailed: 'Failed to fetch tickets',
} as const;
