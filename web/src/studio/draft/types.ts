// What every studio screen gets from the story being edited (useDraft, draft-context.tsx): the draft as the author
// sees it (the server's revision with this tab's unsent edits applied), its problems, how saving is going, and one
// way to edit it: apply(changes), which the draft layer sends, undoes, redoes, merges and reports conflicts for.
import type { Change } from '../../../../engine/authoring/change.js';
import type { Json } from '../../../../engine/authoring/apply.js';
import type { Problem } from '../../../../engine/story/validate.js';

/** How the author's edits are doing: all on the server; being sent; waiting (offline or between sends); refused
 *  because another edit changed the same field (see conflicts); or failing for another reason (see error). */
export type SaveStatus = 'saved' | 'saving' | 'pending' | 'offline' | 'conflict' | 'error';

/** One field both this tab and someone else changed since this tab's base: the author keeps one or writes another. */
export type Conflict = {
  /** The change's path joined with '/', as the server reports it ("moments/ID/goal"). */
  path: string;
  base: unknown;
  /** The value on the server now (someone else's). */
  now: unknown;
  /** This tab's value. */
  mine: unknown;
};

export type StudioDraft = {
  storyId: string;
  /** The draft as the author sees it: a story file as JSON (engine/story/format.ts), never mutated: every edit gives a
   *  new object that shares what did not change. */
  doc: Json;
  /** The server revision this view is based on. */
  revision: number;
  /** The newest published version; null: never published. */
  baseVersion: number | null;
  /** The engine validator's problems for `doc` (errors and warnings, with `$.moments[3].goal`-style paths). */
  problems: readonly Problem[];
  status: SaveStatus;
  /** Edits made here not yet on the server. */
  pending: number;
  /** Why the last send failed (status 'error'), in words for the author. */
  error: string | null;
  conflicts: readonly Conflict[];
  /** Keeps `value` for a conflicted path (theirs, mine or one the author wrote) and sends it. */
  resolve: (path: string, value: unknown) => void;
  /** Applies changes at once to `doc`, records them as one undo step named `label` ("Rename Mira"), and sends them.
   *  Returns the problems when they cannot apply (an unknown id...): nothing changes then. */
  apply: (changes: Change[], label: string) => { path: string; message: string }[] | null;
  undo: () => void;
  redo: () => void;
  /** The labels of the steps undo and redo would take, newest first (for menus and titles). */
  undoLabels: readonly string[];
  redoLabels: readonly string[];
  /** A refusal from the server at a validator path (`$.moments[3].goal`, as in `problems`), to show on the field. */
  refusal: (path: string) => string | null;
};
