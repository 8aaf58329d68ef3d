// ERROR_MESSAGE over the socket (game spec §8): a dialog 'An error occurred' with 'Got it, thanks!'. A miss of the
// recogniser ("Sorry, I didn't catch that.") is not an error: it shows as a caption under the record button.
import { ERROR_DIALOG } from '../../../engine/client/game-screen/menu-text.js';
import { isNotCaught } from '../../../engine/protocol/turn-errors.js';

export function ErrorDialog({ message, notice, onDismiss }: { message: string | null; notice: string | null; onDismiss: () => void }) {
  const text = message && !isNotCaught(message) ? message : notice;
  if (!text) return null;
  return (
    <div className="game-overlay game-overlay--dialog" data-game-dialog>
      <div className="game-dialog" role="alertdialog" aria-modal="true" aria-labelledby="game-error-title" aria-describedby="game-error-text" data-testid="error-dialog">
        <h2 id="game-error-title" className="game-dialog__title">{ERROR_DIALOG.title}</h2>
        <p id="game-error-text" className="game-dialog__text">{text}</p>
        <button type="button" className="game-button game-button--primary" onClick={onDismiss} autoFocus>{ERROR_DIALOG.button}</button>
      </div>
    </div>
  );
}
