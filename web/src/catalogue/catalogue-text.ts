// The catalogues' texts (accounts spec §2, §8).
export const CATALOGUE_TEXT = {
  signInToPlay: 'Sign in to play →',
  signInToTrack: 'Sign in to track your progress and access all features',
  lastUpdated: (date: string) => `Catalogue last updated: ${date}`,
  noStories: 'No stories',
  loading: 'Loading...',
  noneAvailable: 'No stories available at the moment.',
  loadFailed: 'Failed to load stories. Please try refreshing the page.',
  trendingNow: 'Trending Now',
  continueRow: 'Continue',
  moreInfo: 'More Info',
  loadingImages: 'Loading images...',
  connect: 'Connect',
  tagline: 'extraordinary voice driven adventures',
} as const;

/** '20 November 2025': the catalogue's date, in the reader's language. */
export function catalogueDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : new Intl.DateTimeFormat(undefined, { dateStyle: 'long' }).format(d);
}
