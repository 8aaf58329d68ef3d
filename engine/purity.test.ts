// engine/ stays pure: no I/O modules, no clock, no Math.random. Time and randomness come in through ctx/state.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = import.meta.dirname;
const FORBIDDEN_IMPORT = /(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"](node:[^'"]*|fs|path|os|child_process|net|http|https|crypto|ws|pino|pg|react|react-dom|ink|@electric-sql\/[^'"]*)['"]/;
const FORBIDDEN_CALL = /\b(Date\.now|Math\.random|performance\.now|setTimeout|setInterval|setImmediate)\s*\(|\bnew Date\(\s*\)|\b(window|document|localStorage|navigator)\./;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sources(p);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !/^test-/.test(name) && name !== 'arbitraries.ts' ? [p] : [];
  });
}

/** Offending lines of one source text (comments are ignored). */
export function impurities(text: string): string[] {
  return text.split('\n').filter((line) => {
    const code = line.replace(/\/\/.*$/, '').replace(/^\s*\*.*$/, '');
    return FORBIDDEN_IMPORT.test(code) || FORBIDDEN_CALL.test(code);
  });
}

describe('engine purity', () => {
  it('the checker catches each forbidden form', () => {
    for (const bad of [
      "import { readFileSync } from 'node:fs';", "import WebSocket from 'ws';", "import pino from 'pino';", "import pg from 'pg';",
      "import React from 'react';", "const t = Date.now();", 'const r = Math.random();', 'setTimeout(f, 1);', 'document.title = 1;',
      "const m = await import('node:path');", 'const d = new Date();',
    ]) expect(impurities(bad), bad).toHaveLength(1);
    expect(impurities("import { z } from 'zod'; const d = new Date(ctx.now);")).toHaveLength(0);
  });

  it('no engine source imports I/O, the DOM, ws, pino, pg or React, or reads a clock or Math.random', () => {
    const files = sources(ROOT);
    expect(files.length).toBeGreaterThan(20);
    const offenders = files.flatMap((f) => impurities(readFileSync(f, 'utf8')).map((l) => `${relative(ROOT, f)}: ${l.trim()}`));
    expect(offenders).toEqual([]);
  });
});
