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
  loadingCards: 'Loading your cards...',
  noGameData: 'No game data found',
  noGameDataHint: 'You may need to play this story first.',
  noCards: 'No characters or items to display',
  // Ours (the spec shows the picker's states, not these words).
  pickTitle: 'Choose the card to make permanent',
  confirm: (name: string) => `Make ${name} a permanent card, usable in any story? This uses the ticket.`,
  confirmButton: 'Make permanent',
  creating: 'Creating...',
} as const;
