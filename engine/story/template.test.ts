import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fillTemplate } from './template.js';

/** The definition: each variable replaced in turn. */
function reference(template: string, vars: Record<string, string | number>): string {
  let s = template;
  for (const k in vars) s = s.replaceAll(`{${k}}`, String(vars[k]));
  return s;
}

describe('fillTemplate', () => {
  it('equals replacing each variable in turn (property)', () => {
    const name = fc.constantFrom('a', 'b', 'name', 'x_1', 'constructor', 'toString');
    const piece = fc.oneof(fc.string({ maxLength: 6 }), name.map((n) => `{${n}}`), fc.constantFrom('{', '}', '{{', '}}', '{a', 'b}'));
    const template = fc.array(piece, { maxLength: 8 }).map((p) => p.join(''));
    const value = fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), name.map((n) => `{${n}}`), fc.constantFrom('{', '}', 'a}', '{b', '$&', '$$', "$'", '$`', 'x$&y'));
    fc.assert(fc.property(template, fc.dictionary(name, value, { maxKeys: 4 }), (t, vars) => {
      expect(fillTemplate(t, vars)).toBe(reference(t, vars));
    }), { numRuns: 3000 });
  });

  it('fills the texts the engine says', () => {
    expect(fillTemplate('{opponent} prepares to strike {target}!', { opponent: 'Gear', target: 'Mira' })).toBe('Gear prepares to strike Mira!');
    expect(fillTemplate('{names}: {count} of {required}.', { names: 'A, B', count: 2, required: 3 })).toBe('A, B: 2 of 3.');
    expect(fillTemplate('So be it: {label}.', {})).toBe('So be it: {label}.');
  });
});
