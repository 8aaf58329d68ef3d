// The realtime half of the API client: a GameSocket on the browser's WebSocket and the game screen's Link. Kept
// apart from client.ts so that only the game screen's chunk carries the protocol codec and its schemas.
import { Link } from '../../../engine/client/api/link.js';
import { GameSocket } from '../../../engine/client/api/socket.js';
import { browserClock, getAccessToken, newId, SERVER_URL, tokenRefreshes } from './client.js';

/** A GameSocket on the browser's WebSocket, for the current session. */
export function connectGameSocket(): Promise<GameSocket> {
  // Offline, an attempt can only fail (or hang): the link counts it and tries again 5 s later.
  if (!navigator.onLine) return Promise.reject(new Error('The device is offline.'));
  const token = getAccessToken();
  if (!token) return Promise.reject(new Error('A session is needed for the realtime connection.'));
  return GameSocket.open(SERVER_URL, token, (url) => new WebSocket(url), { clock: browserClock, newId, keepAudio: false });
}

/**
 * The game screen's realtime link: opens in the background, retries every 5 s (50 times), replays the pending input,
 * and hands each refreshed access token to the server (ACCESS_TOKEN) so the socket outlives its first token.
 */
export function openGameLink(): Link {
  return Link.start(connectGameSocket, browserClock, { tokenRefreshes });
}

/**
 * Gives the link's socket up when the browser goes offline: an open socket does not notice a lost network for a long
 * time, and 'Reconnecting...' must show at once. Returns the function that stops watching.
 */
export function watchNetwork(link: Link): () => void {
  const down = (): void => link.networkDown();
  window.addEventListener('offline', down);
  return () => window.removeEventListener('offline', down);
}
