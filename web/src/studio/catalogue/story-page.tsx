// /admin/stories/:storyId: the story page, inside the story layout's DraftProvider (story-view.tsx).
import { useDraft } from '../draft/draft-context.js';
import { StoryView } from './story-view.js';

export function StoryPage() {
  return <StoryView draft={useDraft()} />;
}
