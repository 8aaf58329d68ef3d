// How the author's edits are doing, in words, always visible in the story's header: saved, saving, waiting (and
// why), conflicts to resolve, or the server's refusal.
import type { StudioDraft } from '../draft/types.js';

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

export function saveStatusText(d: Pick<StudioDraft, 'status' | 'pending' | 'conflicts' | 'error'>): string {
  switch (d.status) {
    case 'saved': return 'All changes saved';
    case 'saving': return 'Saving...';
    case 'pending': return `${plural(d.pending, 'edit', 'edits')} waiting to be saved`;
    case 'offline': return `Offline: ${plural(d.pending, 'edit', 'edits')} kept here, sent when the connection is back`;
    case 'conflict': return `${plural(d.conflicts.length, 'conflict', 'conflicts')} to resolve: someone else changed the same thing`;
    case 'error': return d.error ?? 'The last edit was not saved.';
  }
}

export function SaveStatus({ draft }: { draft: StudioDraft }) {
  return (
    <p className={`studio-save studio-save--${draft.status}`} role="status" aria-live="polite" data-testid="save-status" data-status={draft.status}>
      <span className="studio-save__dot" aria-hidden="true" />
      {saveStatusText(draft)}
    </p>
  );
}
