// engine/ stays pure: no I/O modules, no clock, no Math.random. Time and randomness come in through ctx/state.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = import.meta.dirname;
const FORBIDDEN_IMPORT = /(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"](node:[^'"]*|fs|path|os|child_process|net|http|https|crypto|ws|pino|pg|react|react-dom|ink|@electric-sql\/[^'"]*)['"]/;
// Node's globals (Buffer, process) and the host's I/O (fetch, WebSocket, crypto) stay out too: the API client and the
// socket in engine/client/api/ receive them injected, so engine/ builds for the browser with no Node shims.
const FORBIDDEN_CALL = /\b(Date\.now|Math\.random|performance\.now|setTimeout|setInterval|setImmediate|queueMicrotask|require)\s*\(|\bnew Date\(\s*\)|\b(window|document|localStorage|sessionStorage|navigator|process|globalThis|crypto)\.|\bBuffer\b|\bprocess\b|(?<![.#\w])fetch\s*\(|\bnew WebSocket\b|\b__dirname\b|\bimport\.meta\.(dirname|filename|url)\b/;

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
    const code = line.replace(/\/\*.*?\*\//g, '').replace(/\/\/.*$/, '').replace(/^\s*\/?\*.*$/, '');
    return FORBIDDEN_IMPORT.test(code) || FORBIDDEN_CALL.test(code);
  });
}

describe('engine purity', () => {
  it('the checker catches each forbidden form', () => {
    for (const bad of [
      "import { readFileSync } from 'node:fs';", "import WebSocket from 'ws';", "import pino from 'pino';", "import pg from 'pg';",
      "import React from 'react';", "const t = Date.now();", 'const r = Math.random();', 'setTimeout(f, 1);', 'document.title = 1;',
      "const m = await import('node:path');", 'const d = new Date();',
      'const b = Buffer.from(x);', 'if (process.env.X) f();', 'const r = await fetch(url);', 'const s = new WebSocket(url);',
      'const id = crypto.randomUUID();', 'const g = globalThis.fetch;', 'const here = import.meta.dirname;',
    ]) expect(impurities(bad), bad).toHaveLength(1);
    expect(impurities("import { z } from 'zod'; const d = new Date(ctx.now);")).toHaveLength(0);
    // Injected I/O is fine: a method named fetch, a socket handed in.
    expect(impurities('const res = await this.#fetch(url, init); this.api.fetch(x); deps.socket.send(b);')).toHaveLength(0);
  });

  it('no engine source imports I/O, the DOM, ws, pino, pg or React, or reads a clock or Math.random', () => {
    const files = sources(ROOT);
    expect(files.length).toBeGreaterThan(20);
    const offenders = files.flatMap((f) => impurities(readFileSync(f, 'utf8')).map((l) => `${relative(ROOT, f)}: ${l.trim()}`));
    expect(offenders).toEqual([]);
  });
});
