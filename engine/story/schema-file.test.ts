// The committed story.schema.json must be what scripts/gen-story-schema.ts writes today: a change to format.ts or to a
// moment type's schema member without `npm run story:schema` fails here. The file accepts the story files the zod
// schema accepts, and refuses a moment carrying another type's field as zod does.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { STORY_SCHEMA_PATH, storySchemaText } from '../../scripts/gen-story-schema.js';
import { MOMENT_TYPES } from '../schema/enum-values.js';
import { Story } from './format.js';

const STORIES = join(import.meta.dirname, '../../fixtures/stories');
const fixture = (name: string): { moments: Record<string, unknown>[] } & Record<string, unknown> =>
  JSON.parse(readFileSync(join(STORIES, name, 'story.json'), 'utf8')) as { moments: Record<string, unknown>[] };

describe('story.schema.json', () => {
  const committed = readFileSync(STORY_SCHEMA_PATH, 'utf8');
  const schema = JSON.parse(committed) as { $id: string; title: string; required: string[]; $defs: Record<string, { required?: string[]; oneOf?: unknown[]; properties?: Record<string, unknown> }> };
  const accepts = new Ajv2020({ strict: false }).compile(schema);

  it('is up to date with the Story zod schema (run `npm run story:schema` to regenerate)', () => {
    expect(committed === storySchemaText(), 'engine/story/story.schema.json is stale: run `npm run story:schema`').toBe(true);
  });

  it('names itself and keeps defaulted fields optional', () => {
    expect(schema.$id).toMatch(/looptale/);
    expect(schema.title).toBe('Looptale story');
    expect(schema.required).toEqual(expect.arrayContaining(['format_version', 'id', 'name', 'catalogue', 'first_moment_id', 'characters', 'moments']));
    expect(schema.required).not.toContain('items');
    expect(schema.$defs.Moment?.oneOf).toHaveLength(MOMENT_TYPES.length);
    for (const type of MOMENT_TYPES) {
      const member = schema.$defs[`${type.replace(' ', '')}Moment`];
      expect(member?.required, type).toEqual(expect.arrayContaining(['id', 'name', 'date', 'type', 'opening']));
      expect(member?.required, type).not.toContain('transitions');
    }
  });

  it('holds each type-specific field in its own type\'s member only', () => {
    const owners = (field: string): string[] => MOMENT_TYPES.filter((t) => schema.$defs[`${t.replace(' ', '')}Moment`]?.properties?.[field] !== undefined);
    expect(owners('rewards')).toEqual(['Reward']);
    expect(owners('opponents')).toEqual(['Battle']);
    expect(owners('upgrade')).toEqual(['Upgrade']);
    expect(owners('max_number_of_characters')).toEqual(['Assemble']);
    expect(owners('opening')).toEqual([...MOMENT_TYPES]);
  });

  it('accepts the story files zod accepts, and refuses another type\'s field as zod does', () => {
    const names = readdirSync(STORIES).filter((n) => n !== 'broken');
    expect(names.length).toBeGreaterThan(1);
    for (const name of names) {
      const story = fixture(name);
      expect(Story.safeParse(story).success, name).toBe(true);
      expect(accepts(story), `${name}: ${JSON.stringify(accepts.errors?.slice(0, 2))}`).toBe(true);
      const battle = story.moments.find((m) => m.type === 'Battle');
      const other = story.moments.find((m) => m.type !== 'Battle');
      if (!battle || !other) continue;
      other.opponents = battle.opponents;
      expect(Story.safeParse(story).success, name).toBe(false);
      expect(accepts(story), name).toBe(false);
    }
  });
});
