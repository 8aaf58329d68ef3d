// The connection overlay (game spec §2, §4): covers the screen whenever the link is not connected, with
// 'Reconnecting...' while it retries (every 5 s, 50 times: engine/client/api/link.ts) and 'Connection lost' after.
import { type ConnectionStatus, CONNECTION_TEXT } from '../../../engine/client/connection.js';
import { Spinner } from '../ui/spinner.js';
import { GAME_TEXT } from './game-text.js';

export function ConnectionOverlay({ status, onRetry }: { status: ConnectionStatus; onRetry: () => void }) {
  if (status === 'connected') return null;
  const lost = status === 'lost' || status === 'closed';
  return (
    <div className="game-overlay game-overlay--connection" role="alert" data-testid="connection-overlay">
      {lost ? null : <Spinner label={CONNECTION_TEXT.reconnecting} />}
      <p className="game-overlay__text">{lost ? CONNECTION_TEXT.lost : CONNECTION_TEXT.reconnecting}</p>
      {status === 'lost' ? <button type="button" className="game-button" onClick={onRetry}>{GAME_TEXT.retry}</button> : null}
    </div>
  );
}
