import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Json } from './apply.js';
import { checkDraft } from './draft-check.js';
import { blankStory, copyName, withFreshIds } from './new-story.js';

const lantern = JSON.parse(readFileSync(join(import.meta.dirname, '../../fixtures/stories/lantern-keeper/story.json'), 'utf8')) as Json;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const NOW = '2026-11-29T14:00:00.000Z';

describe('new stories', () => {
  it('a blank story validates with no error and no warning, in English and French', () => {
    const doc = blankStory(randomUUID, 'My story', NOW);
    const check = checkDraft(doc);
    expect(check.refused).toEqual([]);
    expect(check.report).toEqual([]);
    expect(check.publishable).toBe(true);
    expect((doc.moments as Json[]).map((m) => m.type)).toEqual(['Monologue', 'Epilogue']);
  });

  it('a copy under fresh ids shares no id with the original, keeps every reference and still validates', () => {
    const copy = withFreshIds(lantern, randomUUID, copyName(String(lantern.name)), NOW);
    const before = new Set(JSON.stringify(lantern).match(UUID));
    const after = new Set(JSON.stringify(copy).match(UUID));
    expect(after.size).toBe(before.size);
    for (const id of after) expect(before.has(id)).toBe(false);
    expect(copy.name).toBe('The Lantern Keeper (copy)');
    expect((copy.catalogue as Json).created_at).toBe(NOW);
    expect(checkDraft(copy).refused).toEqual([]);
    expect(checkDraft(copy).publishable).toBe(checkDraft(lantern).publishable);
    // The same shape: only ids, the name and the creation time differ.
    expect(JSON.stringify(copy).replace(UUID, 'ID').replace(/"name":"[^"]*\(copy\)"/, '')).toBe(
      JSON.stringify({ ...lantern, catalogue: { ...(lantern.catalogue as Json), created_at: NOW } }).replace(UUID, 'ID').replace(/"name":"The Lantern Keeper"/, ''),
    );
  });

  it('a copy name stays within the 120 characters of a story name', () => {
    expect(copyName('x'.repeat(120))).toHaveLength(120);
    expect(copyName('x'.repeat(120)).endsWith(' (copy)')).toBe(true);
  });
});
