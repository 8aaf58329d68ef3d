// Each moment type's schema member is the story format's truth about which fields a moment of that type has: its
// `type` is the module's, and its fields are exactly the editor fields a studio form shows (the fields every moment
// has, COMMON_FIELDS, plus the module's own `fields`; and LAYOUT_FIELDS, which the studio sets by dragging), so a form built from the registry matches what a file may hold.
import { describe, expect, it } from 'vitest';
import { MOMENT_TYPES } from '../schema/enum-values.js';
import { BlueprintMoment } from '../story/format.js';
import { COMMON_FIELDS, LAYOUT_FIELDS } from './common.js';
import { MOMENT_MODULES } from './registry.js';

describe('moment schema members', () => {
  it('fix the type to the module\'s, one member per type, in the union', () => {
    expect(MOMENT_MODULES.map((m) => m.schema.shape.type.value)).toEqual([...MOMENT_TYPES]);
    expect(BlueprintMoment.options).toEqual(MOMENT_MODULES.map((m) => m.schema));
  });

  it.each(MOMENT_MODULES.map((m) => [m.type, m] as const))('%s holds exactly its editor fields', (_type, m) => {
    const editor = [...COMMON_FIELDS.map((f) => f.key), ...LAYOUT_FIELDS, ...m.fields.map((f) => f.key)].sort();
    expect(Object.keys(m.schema.shape).sort()).toEqual(editor);
  });
});

describe('a moment\'s position in the flow graph', () => {
  const first = MOMENT_MODULES[0];
  const moment = {
    id: '00000000-0000-4000-8000-000000000001', name: { en: 'Fog' }, date: '2024-01-01', type: first?.type, opening: [{ en: 'Hello.' }],
  };
  it('is optional and holds x and y', () => {
    expect(BlueprintMoment.safeParse(moment).success).toBe(true);
    const placed = BlueprintMoment.parse({ ...moment, position: { x: 120.5, y: -40 } });
    expect(placed.position).toEqual({ x: 120.5, y: -40 });
  });
  it('refuses anything but two finite numbers in range', () => {
    for (const position of [{ x: 1 }, { x: 1, y: '2' }, { x: 1, y: 2, z: 3 }, { x: 2e6, y: 0 }, { x: Number.NaN, y: 0 }]) {
      expect(BlueprintMoment.safeParse({ ...moment, position }).success, JSON.stringify(position)).toBe(false);
    }
  });
});
