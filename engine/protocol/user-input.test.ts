import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { userInputArb } from './arbitraries.js';
import { sampleUserInput } from './samples.js';
import { UserInput } from './user-input.js';

const ID = 'a3bb189e-8bf9-4888-9912-ace4e6543002';
const minimal = { input_id: ID, player_story_id: ID, is_starting_dialogue: true };

function issuePaths(value: unknown): string[] {
  const r = UserInput.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => i.path.join('.'));
}

describe('UserInput', () => {
  it('accepts the three required fields alone, and a full native recording input', () => {
    expect(UserInput.parse(minimal)).toEqual(minimal);
    expect(UserInput.parse(sampleUserInput())).toEqual(sampleUserInput());
  });

  it('strips unknown keys instead of refusing them', () => {
    expect(UserInput.parse({ ...minimal, client_version: '2.1', extra: { a: 1 } })).toEqual(minimal);
  });

  it('requires input_id, player_story_id and is_starting_dialogue', () => {
    expect(issuePaths({})).toEqual(['input_id', 'player_story_id', 'is_starting_dialogue']);
  });

  it('requires version-4 UUIDs (upper case allowed)', () => {
    expect(issuePaths({ ...minimal, input_id: 'a3bb189e-8bf9-1888-9912-ace4e6543002' })).toEqual(['input_id']);
    expect(issuePaths({ ...minimal, player_story_id: 'not-a-uuid' })).toEqual(['player_story_id']);
    expect(issuePaths({ ...minimal, input_id: ID.toUpperCase() })).toEqual([]);
  });

  it.each([
    ['transcription', 'x'.repeat(2001)],
    ['audio_format', 'ogg'],
    ['sample_rate', 7999],
    ['sample_rate', 48001],
    ['sample_rate', 16000.5],
    ['channels', 3],
    ['bits_per_sample', 8],
    ['language', 'spanish'],
    ['selected_character_ids', Array.from({ length: 13 }, () => ID)],
    ['selected_character_ids', ['nope']],
  ])('refuses %s = %j', (key, value) => {
    expect(issuePaths({ ...minimal, [key]: value })[0]).toMatch(new RegExp(`^${key}`));
  });

  it('accepts the bounds', () => {
    const atBounds = {
      ...minimal, transcription: 'x'.repeat(2000), sample_rate: 8000, channels: 2,
      selected_character_ids: Array.from({ length: 12 }, () => ID),
    };
    expect(UserInput.safeParse(atBounds).success).toBe(true);
    expect(UserInput.safeParse({ ...minimal, sample_rate: 48000 }).success).toBe(true);
  });

  it('accepts everything the shared arbitrary generates, unchanged', () => {
    fc.assert(fc.property(userInputArb, (input) => {
      expect(UserInput.parse(input)).toEqual(input);
    }));
  });
});
