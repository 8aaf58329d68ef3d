// Changing a moment's type: each other type is offered when its schema accepts the moment once the fields it does not
// have are dropped (shown to the author first), and refused with the reason when it needs more than that.
import type { Change } from '../../../../engine/authoring/change.js';
import type { Json } from '../../../../engine/authoring/apply.js';
import { MOMENT_MODULES } from '../../../../engine/moments/registry.js';

export type TypeOption = {
  type: string;
  /** Fields the moment has that this type does not: they go with the change. */
  drops: string[];
  /** Why the type cannot be chosen now (a field it needs), or null. */
  refused: string | null;
};

/** The moment types other than the moment's own, each with what choosing it would do. */
export function typeOptions(moment: Json): TypeOption[] {
  return MOMENT_MODULES.filter((m) => m.type !== moment.type).map((m) => {
    const shape = m.schema.shape as Record<string, unknown>;
    const drops = Object.keys(moment).filter((k) => !(k in shape));
    const candidate: Json = { ...moment, type: m.type };
    for (const k of drops) delete candidate[k];
    const parsed = m.schema.safeParse(candidate);
    const refused = parsed.success ? null
      : parsed.error.issues.slice(0, 2).map((i) => `${i.path.join('.') || 'moment'}: ${i.message}`).join('; ');
    return { type: m.type, drops, refused };
  });
}

/** The changes that give the moment its new type: the type, then each dropped field removed (one undo step). */
export function typeChanges(momentId: string, option: TypeOption): Change[] {
  return [
    { op: 'set', path: ['moments', momentId, 'type'], value: option.type },
    ...option.drops.map((k): Change => ({ op: 'set', path: ['moments', momentId, k] })),
  ];
}
