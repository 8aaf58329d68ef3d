// Decode failures are values, never exceptions (STYLE §3): `{ ok: false, error: { code, message } }`.
import { type z } from 'zod';

export const ProtocolErrorCode = {
  TOO_LARGE: 'protocol/too_large',
  NOT_BINARY: 'protocol/not_binary',
  EMPTY: 'protocol/empty',
  MISSING_SEPARATOR: 'protocol/missing_separator',
  UNKNOWN_TYPE: 'protocol/unknown_type',
  WRONG_DIRECTION: 'protocol/wrong_direction',
  BAD_UTF8: 'protocol/bad_utf8',
  BAD_JSON: 'protocol/bad_json',
  SCHEMA_MISMATCH: 'protocol/schema_mismatch',
  /** Valid JSON whose text no store can hold: an unpaired UTF-16 surrogate escape such as "\ud800", or "\u0000". */
  INVALID_TEXT: 'protocol/invalid_text',
  EMPTY_AUDIO: 'protocol/empty_audio',
} as const;
export type ProtocolErrorCode = (typeof ProtocolErrorCode)[keyof typeof ProtocolErrorCode];

export interface ProtocolError {
  code: ProtocolErrorCode;
  /** One or two English sentences for a developer; safe to log (never contains audio). */
  message: string;
}

export interface Failure {
  ok: false;
  error: ProtocolError;
}

export type DecodeResult<F> = { ok: true; frame: F } | Failure;

export function fail(code: ProtocolErrorCode, message: string): Failure {
  return { ok: false, error: { code, message } };
}

const MAX_ISSUES_SHOWN = 5;
const MAX_SHOWN_CHARS = 64;

/** `player_characters[0].equipped_items[2].name`, or `(root)` for the value itself. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(root)' : out;
}

/** Zod issues, briefly: `score: Too big: expected number to be <=100; dialogue: Invalid input: ...`. */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  const shown = issues.slice(0, MAX_ISSUES_SHOWN).map((i) => `${formatPath(i.path)}: ${i.message}`);
  const more = issues.length - shown.length;
  return shown.join('; ') + (more > 0 ? `; and ${more} more issue${more === 1 ? '' : 's'}` : '');
}

/** A type name fit for a message: printable ASCII kept, anything else as \xNN, long names cut. */
export function showTypeName(bytes: Uint8Array): string {
  let out = '';
  const end = Math.min(bytes.length, MAX_SHOWN_CHARS);
  for (let i = 0; i < end; i++) {
    const b = bytes[i] ?? 0;
    out += b >= 0x20 && b < 0x7f && b !== 0x5c && b !== 0x27 ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`;
  }
  return bytes.length > end ? `${out}...` : out;
}

/** A short excerpt of a JSON.parse error (which already names the position), ending as a sentence. */
export function describeJsonError(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  const short = text.length > 200 ? `${text.slice(0, 200)}...` : text;
  return short.endsWith('.') ? short : `${short}.`;
}
