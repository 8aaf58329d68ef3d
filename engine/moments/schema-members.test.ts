// Each moment type's schema member is the story format's truth about which fields a moment of that type has: its
// `type` is the module's, and its fields are exactly the editor fields a studio form shows (the fields every moment
// has, COMMON_FIELDS, plus the module's own `fields`), so a form built from the registry matches what a file may hold.
import { describe, expect, it } from 'vitest';
import { MOMENT_TYPES } from '../schema/enum-values.js';
import { BlueprintMoment } from '../story/format.js';
import { COMMON_FIELDS } from './common.js';
import { MOMENT_MODULES } from './registry.js';

describe('moment schema members', () => {
  it('fix the type to the module\'s, one member per type, in the union', () => {
    expect(MOMENT_MODULES.map((m) => m.schema.shape.type.value)).toEqual([...MOMENT_TYPES]);
    expect(BlueprintMoment.options).toEqual(MOMENT_MODULES.map((m) => m.schema));
  });

  it.each(MOMENT_MODULES.map((m) => [m.type, m] as const))('%s holds exactly its editor fields', (_type, m) => {
    const editor = [...COMMON_FIELDS, ...m.fields].map((f) => f.key).sort();
    expect(Object.keys(m.schema.shape).sort()).toEqual(editor);
  });
});
