// Limits of a story file, checked before anything walks it: a story is a few hundred kilobytes at most (the fixtures
// are about 50 KB, 9 levels deep, 1,600 values), so a file far larger, deeper or wider is not a story, and reading it
// on would only exhaust the stack or the memory. Pure: the caller reads the file and its size.
import { checkJson } from '../schema/json-guard.js';
import type { Problem } from './validate-refs.js';

export const STORY_FILE_MAX_BYTES = 4 * 1024 * 1024;
export const STORY_JSON_LIMITS = { maxDepth: 32, maxValues: 200_000, maxKeys: 100_000 } as const;

const fmt = (n: number): string => n.toLocaleString('en-US');

/** Why a file of this size is not read, or null. */
export function storyFileSizeProblem(bytes: number): string | null {
  return bytes > STORY_FILE_MAX_BYTES ? `it is larger than ${STORY_FILE_MAX_BYTES / 1024 / 1024} MB (${fmt(bytes)} bytes): a story file is a few hundred KB at most` : null;
}

/** The first limit a parsed story file breaks (depth, values, keys, text that is not Unicode), as a problem. */
export function storyJsonProblem(raw: unknown): Problem | null {
  const bad = checkJson(raw, STORY_JSON_LIMITS);
  if (!bad) return null;
  const path = `$${bad.path.slice(0, 8).map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('')}${bad.path.length > 8 ? '…' : ''}`;
  const message = bad.code === 'json/too_many_values' ? `more than ${fmt(STORY_JSON_LIMITS.maxValues)} values`
    : bad.code === 'json/too_many_keys' ? `more than ${fmt(STORY_JSON_LIMITS.maxKeys)} keys` : bad.message;
  return { severity: 'error', path, code: `file/${bad.code.slice('json/'.length)}`, message: `Not a story file: ${message} (at ${path}).` };
}
