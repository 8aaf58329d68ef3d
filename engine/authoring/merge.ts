// Two writers, one draft: changes sent against an older revision are merged with the changes made since, when they
// touch different things (another field, another entity), and refused as a conflict when they touch the same one,
// with the value at the base revision, the value now and the value sent: never a silent overwrite.
import type { Json } from './apply.js';
import { type Change, touchOf } from './change.js';

export type Conflict = { path: string; base: unknown; now: unknown; sent: unknown };

const isRecord = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The value a change's touch names in a draft: a field, or a whole entity (undefined when absent). */
export function valueOfTouch(doc: Json, key: string): unknown {
  const [a = '', b, field] = key.split('/');
  if (b === undefined) return doc[a];
  if (a === 'catalogue') return isRecord(doc.catalogue) ? doc.catalogue[b] : undefined;
  const list = doc[a];
  const entity: unknown = Array.isArray(list) ? (list as unknown[]).find((e) => isRecord(e) && e.id === b) : undefined;
  if (!isRecord(entity)) return undefined;
  return field === undefined ? entity : entity[field];
}

const sentOf = (c: Change): unknown => (c.op === 'set' ? c.value : c.op === 'add' ? c.value : undefined);

const same = (x: unknown, y: unknown): boolean => JSON.stringify(x) === JSON.stringify(y);

/** Whether two changes touch the same thing: the same field or entity, one adds or removes the entity whose field
 *  the other sets, or one removes the entity the other adds a new one after. Two sets of one field to the same value
 *  do not conflict. */
function clash(mine: Change, theirs: Change): boolean {
  const a = touchOf(mine);
  const b = touchOf(theirs);
  if (a.key === b.key) return !(mine.op === 'set' && theirs.op === 'set' && same(mine.value, theirs.value));
  return (a.entity !== null && a.entity === b.key) || (b.entity !== null && b.entity === a.key)
    || (a.anchor !== null && a.anchor === b.key && theirs.op === 'remove') || (b.anchor !== null && b.anchor === a.key && mine.op === 'remove');
}

/**
 * The conflicts between changes sent against `baseDoc` and the changes applied since (`since`, giving `nowDoc`):
 * none means the sent changes apply to `nowDoc` as they are.
 */
export function conflictsOf(mine: readonly Change[], since: readonly Change[], baseDoc: Json, nowDoc: Json): Conflict[] {
  const out: Conflict[] = [];
  const seen = new Set<string>();
  for (const m of mine) {
    if (!since.some((t) => clash(m, t))) continue;
    const key = touchOf(m).key;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ path: key, base: valueOfTouch(baseDoc, key), now: valueOfTouch(nowDoc, key), sent: sentOf(m) });
  }
  return out;
}
