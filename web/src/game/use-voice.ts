// React's view of the session's microphone state.
import { useSyncExternalStore } from 'react';
import type { GameSession } from './game-session.js';

export function useMicError(session: GameSession): string | null {
  return useSyncExternalStore(session.subscribe, () => session.micError);
}
