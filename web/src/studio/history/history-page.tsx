// /admin/stories/:storyId/history: the story's history, inside the story layout's DraftProvider (history-view.tsx).
import { useDraft } from '../draft/draft-context.js';
import { HistoryView } from './history-view.js';

export function HistoryPage() {
  return <HistoryView draft={useDraft()} />;
}
