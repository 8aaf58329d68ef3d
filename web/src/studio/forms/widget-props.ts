// What every widget of a studio form gets: its field, the value in the draft, how to change it, and the context
// pickers and translation flags need.
import type { Json } from '../../../../engine/authoring/apply.js';
import type { FormField } from './form-field.js';
import type { TranslationAges } from './translation-gaps.js';

export type FormCtx = {
  doc: Json;
  /** When each language of each per-language value last changed (the history), for the "outdated" flag. */
  ages?: TranslationAges;
  newId: () => string;
  /** The moment or entity being edited (a transition's default target is another moment). */
  selfId: string;
};

export type WidgetProps = {
  field: FormField;
  value: unknown;
  /** The new value; undefined removes the field (back to its default). */
  onChange: (value: unknown) => void;
  /** The id of the widget's first input (its label points at it). */
  id: string;
  /** The value's translation slot ("moments/ID/opening"). */
  slot: string;
  ctx: FormCtx;
};

export const isRecord = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);
