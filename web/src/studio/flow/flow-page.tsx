// /admin/stories/:storyId/flow and /flow/moment/:momentId: the story's flow graph, with the selected moment beside it.
// Rendered inside the story layout's DraftProvider.
import { useParams } from 'react-router-dom';
import { useDraft } from '../draft/draft-context.js';
import { FlowView } from './flow-view.js';
import { MomentSummary } from './moment-summary.js';

export function FlowPage() {
  const { momentId = null } = useParams();
  const draft = useDraft();
  return (
    <FlowView
      draft={draft}
      momentId={momentId}
      side={(id) => <MomentSummary doc={draft.doc} momentId={id} />}
    />
  );
}
