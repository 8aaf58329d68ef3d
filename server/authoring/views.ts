// What the authoring API answers, as zod schemas: they describe its routes in the OpenAPI document.
import { z } from 'zod';
import { Change } from '../../engine/authoring/change.js';

/** A story file as JSON (validated by `looptale story validate`'s checks when it is written, not here). */
export const StoryFile = z.record(z.string(), z.unknown()).refine((x) => typeof x.id === 'string', 'must be a story file (an object with an id)');

export const ProblemView = z.object({ severity: z.enum(['error', 'warning']), path: z.string(), code: z.string(), message: z.string() });

export const DraftView = z.object({
  story_id: z.string(),
  revision: z.number().int(),
  base_version: z.number().int().nullable(),
  document: StoryFile,
  report: z.array(ProblemView),
  publishable: z.boolean(),
  updated_at: z.string(),
});

export const RevisionView = z.object({
  revision: z.number().int(),
  author_id: z.string().nullable(),
  at: z.string(),
  summary: z.string(),
  changes: z.array(Change),
  diff: z.array(z.object({ path: z.string(), before: z.unknown(), after: z.unknown() })),
});

/** A published version: who published it, when, and the note they gave (null: none). */
export const VersionView = z.object({ version: z.number().int(), published_by: z.string().nullable(), published_at: z.string(), note: z.string().nullable() });

export const WorkshopStory = z.object({
  id: z.string(),
  name: z.string(),
  /** Newest published version; null: never published (in no catalogue yet). */
  published_version: z.number().int().nullable(),
  /** The draft's revision; null: no draft yet (one is made on first edit). */
  draft_revision: z.number().int().nullable(),
  updated_at: z.string(),
});
