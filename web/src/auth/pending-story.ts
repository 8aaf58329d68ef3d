// The story a signed-out visitor chose before signing in (accounts spec §2: after sign-in the player goes to
// /launch/{pendingStoryId} and the pending story is cleared). Kept in localStorage for an hour, so a magic link
// opened in another tab still lands on the story.
const KEY = 'looptale:pending-story';
const MAX_AGE_MS = 60 * 60 * 1000;

export function setPendingStory(storyId: string): void {
  try {
    window.localStorage.setItem(KEY, JSON.stringify({ storyId, at: Date.now() }));
  } catch {
    // storage blocked: the player lands on /browse instead
  }
}

/** The pending story, or null (none, expired, or unreadable); reading it does not clear it. */
export function pendingStory(): string | null {
  try {
    const raw = window.localStorage.getItem(KEY);
    if (!raw) return null;
    const v = JSON.parse(raw) as { storyId?: unknown; at?: unknown };
    if (typeof v.storyId !== 'string' || typeof v.at !== 'number' || Date.now() - v.at > MAX_AGE_MS) return null;
    return v.storyId;
  } catch {
    return null;
  }
}

export function clearPendingStory(): void {
  try {
    window.localStorage.removeItem(KEY);
  } catch {
    // nothing to clear
  }
}
