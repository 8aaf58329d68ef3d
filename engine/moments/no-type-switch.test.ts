// Moment types live in engine/moments/ alone: no other source file switches on a moment type (a `case 'Battle'`, a
// `type === 'Epilogue'`, a Record or Set of types). Tests and test data generators may name types to pick moments.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MOMENT_TYPES } from '../schema/enum-values.js';

const ROOT = join(import.meta.dirname, '../..');
const DIRS = ['engine', 'server', 'cli', 'web/src', 'scripts'];
/** Files that may name a type, and why. */
const ALLOWED = new Map([
  ['engine/story/arbitraries.ts', 'test data generators choose which fields to write for each type'],
  ['engine/client/game-screen/assemble.ts', 'the /game bundle must not load the registry (it pulls the scripted brain)'],
]);

const types = MOMENT_TYPES.map((t) => t.replace(' ', '\\s')).join('|');
const PATTERNS: [string, RegExp][] = [
  ['a case on a type', new RegExp(`case\\s+'(${types})'`)],
  ['a comparison with a type', new RegExp(`(type|moment_type|Type)\\??\\s*[!=]==?\\s*'(${types})'`)],
  ['a comparison with a type', new RegExp(`'(${types})'\\s*[!=]==?\\s*[\\w.]*(type|moment_type)\\b`)],
  ['a set of types', new RegExp(`new Set(<[^>]*>)?\\(\\[\\s*'(${types})'`)],
  ['a table keyed by type', /Record<\s*(MomentType|Node\['type'\]|StoryGraphNode\['moment_type'\])/],
];

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    if (statSync(p).isDirectory()) out.push(...sources(p));
    else if (/\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(p);
  }
  return out;
}

describe('moment types', () => {
  it('are switched on only in engine/moments/', () => {
    const found: string[] = [];
    for (const d of DIRS) {
      for (const file of sources(join(ROOT, d))) {
        const rel = relative(ROOT, file).split('\\').join('/');
        if (rel.startsWith('engine/moments/') || ALLOWED.has(rel)) continue;
        readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
          const hit = PATTERNS.find(([, re]) => re.test(line));
          if (!hit) return;
          found.push(`${rel}:${i + 1}: ${hit[0]}: ${line.trim().slice(0, 120)}`);
        });
      }
    }
    expect(found).toEqual([]);
  });
});
