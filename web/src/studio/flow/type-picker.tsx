// The list of moment types to add, each with its module's description (the registry's order).
import { MOMENT_MODULES } from '../../../../engine/moments/registry.js';
import type { MomentModule } from '../../../../engine/moments/types.js';
import { Modal } from '../../ui/modal.js';

export function TypePicker({ open, onClose, onPick }: { open: boolean; onClose: () => void; onPick: (mod: MomentModule) => void }) {
  return (
    <Modal open={open} onClose={onClose} title="Add a moment" maxWidth={640} testId="flow-type-picker">
      <ul className="flow-picker">
        {MOMENT_MODULES.map((mod) => (
          <li key={mod.type}>
            <button type="button" className="flow-picker__type" onClick={() => onPick(mod)} data-type={mod.type}>
              <span className="flow-picker__swatch" style={mod.graph.fill ? { background: mod.graph.fill } : undefined} aria-hidden="true" />
              <span className="flow-picker__name">{mod.graph.label}</span>
              <span className="flow-picker__desc">{mod.description}</span>
            </button>
          </li>
        ))}
      </ul>
    </Modal>
  );
}
