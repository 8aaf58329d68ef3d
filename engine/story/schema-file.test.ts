// The committed story.schema.json must be what scripts/gen-story-schema.ts writes today: a change to format.ts
// without `npm run story:schema` fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STORY_SCHEMA_PATH, storySchemaText } from '../../scripts/gen-story-schema.js';

describe('story.schema.json', () => {
  const committed = readFileSync(STORY_SCHEMA_PATH, 'utf8');

  it('is up to date with the Story zod schema (run `npm run story:schema` to regenerate)', () => {
    expect(committed === storySchemaText(), 'engine/story/story.schema.json is stale: run `npm run story:schema`').toBe(true);
  });

  it('names itself and keeps defaulted fields optional', () => {
    const schema = JSON.parse(committed) as { $id: string; title: string; required: string[]; $defs: Record<string, { required?: string[] }> };
    expect(schema.$id).toMatch(/looptale/);
    expect(schema.title).toBe('Looptale story');
    expect(schema.required).toEqual(expect.arrayContaining(['format_version', 'id', 'name', 'catalogue', 'first_moment_id', 'characters', 'moments']));
    expect(schema.required).not.toContain('items');
    expect(schema.$defs.Moment?.required).not.toContain('transitions');
  });
});
