// The game modal (game spec §2): full width, 90% of the height, over a dimmed page. Escape or the close button close
// it (the page decides what closing does: stop audio, reset, back to the launch screen). Focus starts inside it.
import { type ReactNode, useEffect, useRef } from 'react';
import { CloseIcon } from '../ui/icons.js';
import './game-modal.css';

export function GameModal({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      // Escape closes the game unless a dialog inside it (menu confirmation, error) takes it first.
      if (e.key === 'Escape' && !e.defaultPrevented && !document.querySelector('[data-game-dialog]')) onClose();
    };
    window.addEventListener('keydown', onKey);
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      window.removeEventListener('keydown', onKey);
      document.body.style.overflow = overflow;
    };
  }, [onClose]);
  return (
    <div className="game-modal__backdrop">
      <div ref={ref} className="game-modal" role="dialog" aria-modal="true" aria-label={title} tabIndex={-1} data-testid="game-modal">
        <button type="button" className="game-modal__close" onClick={onClose} aria-label="Close the game">
          <CloseIcon aria-hidden="true" />
        </button>
        {children}
      </div>
    </div>
  );
}
