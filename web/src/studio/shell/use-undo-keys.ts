// Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y (Cmd on a Mac) undo and redo the studio's edits, except while typing in a field,
// where they undo the typing itself (the browser's own undo, whose result is an edit like any other).
import { useEffect } from 'react';
import type { StudioDraft } from '../draft/types.js';

const typing = (t: EventTarget | null): boolean =>
  t instanceof HTMLElement && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName));

export function useUndoKeys(draft: Pick<StudioDraft, 'undo' | 'redo'>): void {
  const { undo, redo } = draft;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || typing(e.target)) return;
      const key = e.key.toLowerCase();
      if (key === 'z' && !e.shiftKey) undo();
      else if ((key === 'z' && e.shiftKey) || key === 'y') redo();
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [undo, redo]);
}
