// Where and how an author's test run starts in the local host: any moment, with the run number, completion counts,
// cards, items, equipment, health and persist options the author sets (accounts spec §1: story-maker mode copies
// nothing from the previous run unless the testing configuration persists items or characters). Validated at the
// edge, once: the shape by zod, then every id against the story, each refusal named by its path.
import { z } from 'zod';
import { PlayLanguage } from '../../schema/enums.js';
import type { Story } from '../../story/format.js';
import { indexStory } from '../../story/story-index.js';

export const StartCharacter = z.object({
  /** The blueprint character. */
  id: z.string().min(1),
  /** Current health; its base health when not given. 0 is a burned-out card. */
  health: z.number().int().min(0).optional(),
  /** Maximum health (an upgraded card); its base health when not given. */
  max_health: z.number().int().min(1).optional(),
  /** In the team (is_selected_in_assemble): battles, rewards and equip moments use the selected cards only. */
  selected: z.boolean().default(true),
  /** Blueprint items this character wears, each one of the start's `items`. */
  equipment: z.array(z.string().min(1)).default([]),
}).strict();
export type StartCharacter = z.infer<typeof StartCharacter>;

export const LocalStart = z.object({
  /** The moment the run enters first (the story's first moment when not given); auto-skip rules apply to it. */
  moment_id: z.string().min(1).optional(),
  language: PlayLanguage.default('english'),
  /** The seeded random source's start: the same seed and inputs play the same run. */
  seed: z.number().int().min(0).max(0xffffffff).default(1),
  user_id: z.string().min(1).default('story-maker'),
  /** Which run of the player this is (1 = the first): moments shown from a run number on read it. */
  run_number: z.number().int().min(1).default(1),
  /** Times each moment was completed in earlier runs (moments hidden after some completions read it). */
  completion_counts: z.record(z.string(), z.number().int().min(0)).default({}),
  /** The player's characters; the story's default enrolments when not given. */
  characters: z.array(StartCharacter).max(50).optional(),
  /** The player's items (blueprint ids); the story's default items when not given. */
  items: z.array(z.string().min(1)).max(100).optional(),
  max_interactions: z.number().int().min(1).optional(),
  /** What a new run in this host keeps from the one before (story-maker mode: nothing unless persisted). */
  persist: z.object({ items: z.boolean(), characters: z.boolean() }).strict().default({ items: false, characters: false }),
}).strict();
export type LocalStart = z.infer<typeof LocalStart>;
export type LocalStartInput = z.input<typeof LocalStart>;

/** One refusal of a start: where (`characters[1].equipment[0]`) and why. */
export type StartError = { path: string; message: string };

export type StartCheck = { ok: true; start: LocalStart } | { ok: false; errors: StartError[] };

function pathOf(path: readonly PropertyKey[]): string {
  let out = '';
  for (const k of path) out += typeof k === 'number' ? `[${k}]` : `${out ? '.' : ''}${String(k)}`;
  return out || '(start)';
}

/** Checks a start against the story: its shape, then every moment, character and item it names. */
export function checkStart(story: Story, input: unknown): StartCheck {
  const parsed = LocalStart.safeParse(input ?? {});
  if (!parsed.success) return { ok: false, errors: parsed.error.issues.map((i) => ({ path: pathOf(i.path), message: i.message })) };
  const start = parsed.data;
  const idx = indexStory(story);
  const errors: StartError[] = [];
  const err = (path: string, message: string) => errors.push({ path, message });

  if (start.moment_id !== undefined && !idx.moments.has(start.moment_id)) err('moment_id', `Unknown moment '${start.moment_id}'.`);
  for (const id of Object.keys(start.completion_counts)) {
    if (!idx.moments.has(id)) err(`completion_counts.${id}`, `Unknown moment '${id}'.`);
  }
  const items = new Set<string>();
  (start.items ?? []).forEach((id, i) => {
    if (!idx.items.has(id)) err(`items[${i}]`, `Unknown item '${id}'.`);
    else if (items.has(id)) err(`items[${i}]`, `Item '${id}' is listed twice.`);
    items.add(id);
  });
  const characters = new Set<string>();
  const wornBy = new Map<string, string>();
  (start.characters ?? []).forEach((c, i) => {
    const at = `characters[${i}]`;
    const bc = idx.characters.get(c.id);
    if (!bc) {
      err(`${at}.id`, `Unknown character '${c.id}'.`);
      return;
    }
    if (characters.has(c.id)) err(`${at}.id`, `Character '${bc.name}' is listed twice.`);
    characters.add(c.id);
    const max = c.max_health ?? bc.base_health;
    if (c.health !== undefined && c.health > max) err(`${at}.health`, `Health ${c.health} is above ${bc.name}'s maximum health ${max}.`);
    c.equipment.forEach((itemId, j) => {
      const where = `${at}.equipment[${j}]`;
      if (!items.has(itemId)) err(where, idx.items.has(itemId) ? `Item '${itemId}' is not among the start's items.` : `Unknown item '${itemId}'.`);
      else if (wornBy.has(itemId)) err(where, `Item '${itemId}' is already worn by ${wornBy.get(itemId) ?? ''}.`);
      else wornBy.set(itemId, bc.name);
    });
  });
  return errors.length ? { ok: false, errors } : { ok: true, start };
}

/** The errors as one text, a line each (`characters[0].id: Unknown character 'x'.`). */
export function describeStartErrors(errors: readonly StartError[]): string {
  return errors.map((e) => `${e.path}: ${e.message}`).join('\n');
}
