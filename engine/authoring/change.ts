// A change to a story draft: what the authoring API takes, one small edit at a time. A change names what it edits by
// ids, never by an index in a list, so two authors' changes to different things merge (merge.ts), and each has an
// exact inverse (apply.ts), so history can restore any revision.
import { z } from 'zod';
import { UuidV4 } from '../schema/ids.js';

/** The story's lists of things with ids. */
export const Collection = z.enum(['moments', 'characters', 'items', 'places']);
export type Collection = z.infer<typeof Collection>;

/** Fields of the story itself a change may set (not its id, its format version or its lists). */
export const StoryField = z.enum([
  'name', 'loop_max_number_of_interactions', 'rank_thresholds', 'rank_rewards', 'first_moment_id', 'battle_verbs', 'decoys',
]);
export type StoryField = z.infer<typeof StoryField>;

/** A field name inside an entity or the catalogue (an entity's id is never changed: remove and add instead). */
const FieldName = z.string().regex(/^[a-z][a-z0-9_]*$/, 'must be a field name (lower case, digits and _)').max(64)
  .refine((k) => k !== 'id', 'an id is never changed: remove the entity and add it again');

/** Where a `set` writes: a story field, a catalogue field, or a field of one entity. */
export const ChangePath = z.union([
  z.tuple([StoryField]),
  z.tuple([z.literal('catalogue'), FieldName]),
  z.tuple([Collection, UuidV4, FieldName]),
]);
export type ChangePath = z.infer<typeof ChangePath>;

const Entity = z.record(z.string(), z.unknown()).refine((e) => typeof e.id === 'string', 'must have an id');

export const Change = z.discriminatedUnion('op', [
  /** Sets a field; without `value` the field is removed (an optional field back to its default). */
  z.object({ op: z.literal('set'), path: ChangePath, value: z.unknown().optional() }).strict(),
  /** Adds an entity at the end of its list, first (`after: null`), or right after the entity `after`. */
  z.object({ op: z.literal('add'), collection: Collection, value: Entity, after: UuidV4.nullable().optional() }).strict(),
  z.object({ op: z.literal('remove'), collection: Collection, id: UuidV4 }).strict(),
]);
export type Change = z.infer<typeof Change>;

/** At most this many changes in one request. */
export const MAX_CHANGES_PER_REQUEST = 200;
export const Changes = z.array(Change).min(1).max(MAX_CHANGES_PER_REQUEST);

/** What a change touches, for merging: the field it sets, or the whole entity it adds or removes; and the entity an
 *  add is placed after (it must still be there). */
export type Touch = { key: string; entity: string | null; anchor: string | null };

export function touchOf(c: Change): Touch {
  if (c.op === 'set') {
    const [a, b, field] = c.path;
    if (field !== undefined) return { key: `${a}/${b}/${field}`, entity: `${a}/${b}`, anchor: null };
    return { key: c.path.join('/'), entity: null, anchor: null };
  }
  const id = c.op === 'add' ? String(c.value.id) : c.id;
  const anchor = c.op === 'add' && c.after ? `${c.collection}/${c.after}` : null;
  return { key: `${c.collection}/${id}`, entity: `${c.collection}/${id}`, anchor };
}

/** A readable one-line description of a change ("set moments/ID/goal", "add moments/ID"). */
export function describeChange(c: Change): string {
  return `${c.op} ${touchOf(c).key}`;
}
