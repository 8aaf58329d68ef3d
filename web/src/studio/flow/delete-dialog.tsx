// Deleting a moment: what breaks is shown first (transitions, skips and answers that lead to it, the story's start),
// and the delete removes those references in the same edit (one undo step).
import { Button } from '../../ui/button.js';
import { Modal } from '../../ui/modal.js';
import type { DeleteImpact } from './flow-model.js';

export function DeleteDialog({ name, impact, onCancel, onConfirm }: { name: string; impact: DeleteImpact | null; onCancel: () => void; onConfirm: () => void }) {
  return (
    <Modal open={impact !== null} onClose={onCancel} title={`Delete "${name}"?`} maxWidth={520} testId="flow-delete-dialog">
      {impact?.refused ? <p className="flow-delete__refused">{impact.refused}</p> : null}
      {impact && !impact.refused ? (
        impact.breaks.length > 0 ? (
          <>
            <p>Deleting it also changes:</p>
            <ul className="flow-delete__breaks" data-testid="flow-delete-breaks">{impact.breaks.map((b) => <li key={b}>{b}</li>)}</ul>
          </>
        ) : <p>Nothing else leads to this moment.</p>
      ) : null}
      <div className="flow-delete__actions">
        <Button onClick={onCancel}>Cancel</Button>
        {impact && !impact.refused ? <Button variant="danger" onClick={onConfirm} data-autofocus>Delete moment</Button> : null}
      </div>
    </Modal>
  );
}
