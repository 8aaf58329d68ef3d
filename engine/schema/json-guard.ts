// Limits for JSON that comes from outside (socket frames, HTTP bodies, user metadata, story files): nesting depth,
// number of values and keys, and text that a store can hold. PostgreSQL's jsonb refuses an unpaired UTF-16 surrogate
// ("\ud800" is valid JSON but not valid text) and U+0000 ("\u0000": its text and jsonb types cannot hold NUL), and
// very deep or very wide values exhaust the stack or the memory of whoever walks them next. The walk is iterative, so
// checking a hostile value cannot overflow the stack itself.

export type JsonLimits = {
  /** Deepest nesting of objects and arrays: {"a":1} is 1 deep, a scalar 0. */
  maxDepth: number;
  /** Values (objects, arrays, scalars) in all. */
  maxValues?: number;
  /** Object keys in all. */
  maxKeys?: number;
};

export type JsonProblemCode = 'json/lone_surrogate' | 'json/nul' | 'json/too_deep' | 'json/too_many_values' | 'json/too_many_keys';
export type JsonProblem = { code: JsonProblemCode; path: (string | number)[]; message: string };

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when the string holds a UTF-16 surrogate without its partner (it cannot be encoded as UTF-8). */
export function hasLoneSurrogate(s: string): boolean {
  return LONE_SURROGATE.test(s);
}

/**
 * Text from a provider (a transcript, a model's words) made storable rather than refused: NUL dropped and each lone
 * surrogate replaced by U+FFFD, as a UTF-8 encoder would.
 */
export function storableText(s: string): string {
  const noNul = s.includes('\0') ? s.replaceAll('\0', '') : s;
  return hasLoneSurrogate(noNul) ? noNul.replace(new RegExp(LONE_SURROGATE.source, 'g'), '\ufffd') : noNul;
}

const MAX_PATH_SHOWN = 6;

/** `data.a.a[2]` for messages, cut after a few segments. */
export function showJsonPath(path: readonly (string | number)[]): string {
  const shown = path.slice(0, MAX_PATH_SHOWN).reduce<string>((p, k) => (typeof k === 'number' ? `${p}[${k}]` : p ? `${p}.${k}` : k), '');
  return (shown || '(root)') + (path.length > MAX_PATH_SHOWN ? '…' : '');
}

function surrogateMessage(s: string): string {
  const m = LONE_SURROGATE.exec(s);
  const unit = m ? `\\u${(m[0].charCodeAt(0)).toString(16)}` : '';
  return `contains an unpaired UTF-16 surrogate (${unit}): text must be valid Unicode`;
}

const NUL_MESSAGE = 'contains U+0000 (NUL), which text cannot hold';

/** What is wrong with a string as stored text, or null: a lone surrogate, or NUL. */
function textProblem(s: string): { code: 'json/lone_surrogate' | 'json/nul'; message: string } | null {
  if (s.includes('\0')) return { code: 'json/nul', message: NUL_MESSAGE };
  if (hasLoneSurrogate(s)) return { code: 'json/lone_surrogate', message: surrogateMessage(s) };
  return null;
}

/** The first problem found in a parsed JSON value, or null. */
export function checkJson(value: unknown, limits: JsonLimits, root: readonly (string | number)[] = []): JsonProblem | null {
  const stack: { v: unknown; depth: number; path: (string | number)[] }[] = [{ v: value, depth: 0, path: [...root] }];
  let values = 0;
  let keys = 0;
  while (stack.length > 0) {
    const { v, depth, path } = stack.pop()!;
    values++;
    if (limits.maxValues !== undefined && values > limits.maxValues) {
      return { code: 'json/too_many_values', path, message: `more than ${limits.maxValues} values` };
    }
    if (typeof v === 'string') {
      const bad = textProblem(v);
      if (bad) return { ...bad, path };
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    if (depth + 1 > limits.maxDepth) return { code: 'json/too_deep', path, message: `nested deeper than ${limits.maxDepth} levels` };
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], depth: depth + 1, path: [...path, i] });
      continue;
    }
    const entries = Object.entries(v as Record<string, unknown>);
    keys += entries.length;
    if (limits.maxKeys !== undefined && keys > limits.maxKeys) return { code: 'json/too_many_keys', path, message: `more than ${limits.maxKeys} keys` };
    for (let i = entries.length - 1; i >= 0; i--) {
      const [k, x] = entries[i]!;
      const bad = textProblem(k);
      if (bad) return { code: bad.code, path: [...path, k], message: `key ${bad.message}` };
      stack.push({ v: x, depth: depth + 1, path: [...path, k] });
    }
  }
  return null;
}

/**
 * Whether raw JSON text may hold a surrogate or NUL escape (a cheap test before walking the parsed value). JSON text
 * cannot hold a raw NUL or lone surrogate in a string, only their escapes.
 */
export function mayHoldBadTextEscape(text: string): boolean {
  return /\\u(?:[dD][89a-fA-F]|0000)/.test(text);
}
