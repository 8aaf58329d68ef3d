// A story in the studio: its header (name, publish state, save status, undo and redo, problems) and tabs over the
// story's screens, all inside one DraftProvider so every screen edits the same draft. Ctrl+Z / Ctrl+Shift+Z (Cmd on
// a Mac) undo and redo the studio's edits, except while typing in a field, where they undo the typing itself.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { NavLink, Outlet, useParams } from 'react-router-dom';
import { Button } from '../../ui/button.js';
import { DraftProvider, useDraft } from '../draft/draft-context.js';
import type { StudioDraft } from '../draft/types.js';
import { ConflictsPanel } from './conflicts-panel.js';
import { ProblemsPanel } from './problems-panel.js';
import { SaveStatus } from './save-status.js';
import { useUndoKeys } from './use-undo-keys.js';
import { workshop, workshopKeys } from '../stories/workshop-api.js';
import { translationGaps } from '../forms/translation-gaps.js';
import { useTranslationAges } from '../forms/use-translation-ages.js';
import './studio.css';

const TABS = [
  { to: '', label: 'Story', end: true },
  { to: 'flow', label: 'Flow', end: false },
  { to: 'characters', label: 'Characters', end: false },
  { to: 'items', label: 'Items', end: false },
  { to: 'places', label: 'Places', end: false },
  { to: 'history', label: 'History', end: false },
];

/** The newest published version: from the versions list (refreshed when this or another page publishes), else the
 *  draft's own record of it. */
function publishState(d: StudioDraft, newest: number | null): string {
  const version = newest ?? d.baseVersion;
  return version === null ? `Never published · draft revision ${d.revision}` : `Published version ${version} · draft revision ${d.revision}`;
}

function StoryFrame() {
  const draft = useDraft();
  const [showProblems, setShowProblems] = useState(false);
  useUndoKeys(draft);
  const errors = draft.problems.filter((p) => p.severity === 'error').length;
  const warnings = draft.problems.length - errors;
  const name = typeof draft.doc.name === 'string' ? draft.doc.name : 'Story';
  const versions = useQuery({ queryKey: workshopKeys.versions(draft.storyId), queryFn: () => workshop.versions(draft.storyId) });
  const newest = versions.data && versions.data.length > 0 ? Math.max(...versions.data.map((v) => v.version)) : null;
  const gaps = translationGaps(draft.doc, useTranslationAges(draft.storyId, draft.revision));
  return (
    <div className={`studio-story${showProblems ? ' studio-story--problems' : ''}`}>
      <header className="studio-story__head">
        <div className="studio-story__title">
          <h1>{name}</h1>
          <p className="studio-muted" data-testid="publish-state">{publishState(draft, newest)}</p>
          <p className="studio-muted" data-testid="translation-gaps">
            {gaps.missing + gaps.outdated === 0 ? 'Every text has its French' : `French: ${gaps.missing} missing · ${gaps.outdated} outdated`}
          </p>
        </div>
        <div className="studio-story__tools">
          <SaveStatus draft={draft} />
          <div className="studio-story__buttons">
            <Button size="sm" variant="ghost" onClick={draft.undo} disabled={draft.undoLabels.length === 0}
              title={draft.undoLabels[0] ? `Undo ${draft.undoLabels[0]} (Ctrl+Z)` : 'Nothing to undo'} aria-label={draft.undoLabels[0] ? `Undo ${draft.undoLabels[0]}` : 'Undo'}>Undo</Button>
            <Button size="sm" variant="ghost" onClick={draft.redo} disabled={draft.redoLabels.length === 0}
              title={draft.redoLabels[0] ? `Redo ${draft.redoLabels[0]} (Ctrl+Shift+Z)` : 'Nothing to redo'} aria-label={draft.redoLabels[0] ? `Redo ${draft.redoLabels[0]}` : 'Redo'}>Redo</Button>
            <Button size="sm" variant={errors > 0 ? 'danger' : 'secondary'} onClick={() => setShowProblems((s) => !s)} aria-expanded={showProblems} data-testid="problems-button">
              {errors} {errors === 1 ? 'error' : 'errors'} · {warnings} {warnings === 1 ? 'warning' : 'warnings'}
            </Button>
          </div>
        </div>
      </header>
      <nav className="studio-tabs" aria-label="Story">
        {TABS.map((t) => <NavLink key={t.label} end={t.end} to={t.to === '' ? `/admin/stories/${draft.storyId}` : `/admin/stories/${draft.storyId}/${t.to}`}>{t.label}</NavLink>)}
      </nav>
      <ConflictsPanel draft={draft} />
      <div className="studio-story__body">
        <div className="studio-story__main"><Outlet /></div>
        {showProblems ? <ProblemsPanel storyId={draft.storyId} doc={draft.doc} problems={draft.problems} onClose={() => setShowProblems(false)} /> : null}
      </div>
    </div>
  );
}

/** The route element of /admin/stories/:storyId/*. */
export function StoryLayout() {
  const { storyId = '' } = useParams();
  return <DraftProvider storyId={storyId}><StoryFrame /></DraftProvider>;
}
