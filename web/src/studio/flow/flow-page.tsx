// /admin/stories/:storyId/flow and /flow/moment/:momentId: the story's flow graph, with the selected moment's form
// beside it (web/src/studio/forms/moment-form.tsx). Rendered inside the story layout's DraftProvider.
import { useParams } from 'react-router-dom';
import { useDraft } from '../draft/draft-context.js';
import { MomentForm } from '../forms/moment-form.js';
import { FlowView } from './flow-view.js';

export function FlowPage() {
  const { momentId = null } = useParams();
  const draft = useDraft();
  return <FlowView draft={draft} momentId={momentId} side={(id) => <MomentForm key={id} momentId={id} />} />;
}
