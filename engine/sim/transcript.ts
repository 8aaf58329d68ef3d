// Run transcripts: one JSON line per record (header, every event with its outputs, final). Written by
// `simulate --save-transcripts` and by the server's transcript export; `looptale replay` reads both. The header
// carries the state before the run, so each run replays on its own, exactly.
import { z } from 'zod';
import { GameOutput } from '../schema/game-output.js';
import { GameEvent } from '../run/events.js';
import { GameState } from '../run/state.js';

export const TRANSCRIPT_FORMAT = 'looptale-transcript';

export const TranscriptHeader = z.object({
  kind: z.literal('header'),
  format: z.literal(TRANSCRIPT_FORMAT),
  version: z.literal(1),
  source: z.enum(['simulate', 'server', 'story-test']),
  story_id: z.string(),
  story_name: z.string(),
  user_id: z.string(),
  seed: z.number().int(),
  bot: z.string().optional(),
  run_index: z.number().int().min(0),
  initial_state: GameState,
});
export type TranscriptHeader = z.infer<typeof TranscriptHeader>;

export const StageTimings = z.record(z.string(), z.number());

export const TranscriptEvent = z.object({
  kind: z.literal('event'),
  index: z.number().int().min(0),
  now: z.number(),
  event: GameEvent,
  outputs: z.array(GameOutput),
  /** Server turns: what was received (audio is referenced, never inlined) and per-stage timings in ms. */
  audio: z.object({ format: z.string(), bytes: z.number().int(), sha1: z.string().optional(), file: z.string().optional() }).optional(),
  stages: StageTimings.optional(),
  state_digest: z.string(),
});
export type TranscriptEvent = z.infer<typeof TranscriptEvent>;

export const TranscriptFinal = z.object({
  kind: z.literal('final'),
  events: z.number().int().min(0),
  state_digest: z.string(),
  loop_status: z.string(),
  loop_rank: z.number().int().nullable(),
  loop_current_number_of_interactions: z.number().int(),
});
export type TranscriptFinal = z.infer<typeof TranscriptFinal>;

export const TranscriptLine = z.discriminatedUnion('kind', [TranscriptHeader, TranscriptEvent, TranscriptFinal]);
export type TranscriptLine = z.infer<typeof TranscriptLine>;

/** JSON with object keys sorted, so equal values always give equal text (stores may reorder keys). */
export function canonicalJson(value: unknown): string {
  // Written out rather than JSON.stringify with a replacer (which builds a sorted copy of every object): the same
  // text, several times faster; every turn's state digest goes through here.
  return canonical(value) ?? 'null';
}

/** JSON.stringify's text with keys sorted; undefined where JSON.stringify would leave the value out. */
function canonical(v: unknown): string | undefined {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return JSON.stringify(v);
    case 'number':
      return Number.isFinite(v) ? JSON.stringify(v) : 'null';
    case 'object': {
      const withJson = v as { toJSON?: () => unknown };
      if (typeof withJson.toJSON === 'function') return canonical(withJson.toJSON());
      if (Array.isArray(v)) {
        let out = '[';
        for (let i = 0; i < v.length; i++) out += `${i ? ',' : ''}${canonical(v[i]) ?? 'null'}`;
        return `${out}]`;
      }
      const o = v as Record<string, unknown>;
      const keys = sortedKeys(o);
      let out = '{';
      let first = true;
      for (const k of keys) {
        const s = canonical(o[k]);
        if (s === undefined) continue;
        out += `${first ? '' : ','}${JSON.stringify(k)}:${s}`;
        first = false;
      }
      return `${out}}`;
    }
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    case 'function':
    case 'symbol':
    case 'undefined':
      return undefined;
  }
}

/** Array-index keys ('0', '1', ...) come first in numeric order, as in any JS object's own key order; then the rest. */
const INDEX = /^(?:0|[1-9]\d{0,9})$/;
function sortedKeys(o: Record<string, unknown>): string[] {
  const keys = Object.keys(o).sort();
  if (!keys.some((k) => INDEX.test(k) && Number(k) < 4294967295)) return keys;
  const index = keys.filter((k) => INDEX.test(k) && Number(k) < 4294967295).sort((a, b) => Number(a) - Number(b));
  const rest = keys.filter((k) => !(INDEX.test(k) && Number(k) < 4294967295));
  return [...index, ...rest];
}

/** Canonical text of the rows a state holds (array elements and the run), by row object. */
const rowText = new WeakMap<object, string>();

/** canonical(v) ?? 'null', remembered per row object: rows are never changed in place (a step replaces them). */
function rowJson(v: unknown): string {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return canonical(v) ?? 'null';
  let t = rowText.get(v);
  if (t === undefined) {
    t = flat(canonical(v) ?? 'null');
    rowText.set(v, t);
  }
  return t;
}

/** What `flat` reads, kept so that the read is never optimised away. */
let _flatProbe = 0;

/**
 * The same string, stored in one piece. Text built with `+` is a rope in V8 (a tree of its pieces: for a row's
 * canonical text about 8x its length in heap, tens of objects per row); a server keeps the text of every row of every
 * cached state for as long as the row lives, so ropes were half of its live heap (#12: 47 MB of 105 MB at 500 sockets)
 * and most of what a major GC traces. V8 flattens a rope in place the first time one of its characters is read.
 */
function flat(s: string): string {
  _flatProbe ^= s.charCodeAt(0) | 0;
  return s;
}

/**
 * canonicalJson(s), the same text, with each row's text made once per row object: a turn changes a few rows, and the
 * server digests and writes the state every turn (the rows of a state kept in memory are the same objects from turn
 * to turn). Only the rows (the elements of the state's arrays, and the run) are remembered: the state object and its
 * records are changed in place by the engine's drafts, rows never are.
 */
export function canonicalStateJson(s: GameState): string {
  const o = s as unknown as Record<string, unknown>;
  let out = '{';
  let first = true;
  for (const k of sortedKeys(o)) {
    const v = o[k];
    let text: string | undefined;
    if (Array.isArray(v)) {
      text = '[';
      for (let i = 0; i < v.length; i++) text += `${i ? ',' : ''}${rowJson(v[i])}`;
      text += ']';
    } else if (k === 'run' && v !== undefined) {
      text = rowJson(v);
    } else {
      text = canonical(v);
    }
    if (text === undefined) continue;
    out += `${first ? '' : ','}${JSON.stringify(k)}:${text}`;
    first = false;
  }
  return `${out}}`;
}

/** A short digest of a state, to compare states without storing them; independent of key order. */
export function stateDigest(s: GameState): string {
  return digestOfJson(canonicalStateJson(s));
}

/** stateDigest of the state whose canonicalStateJson is `json`. */
export function digestOfJson(json: string): string {
  // hashSeed(json) and hashSeed(json, 0x9e3779b9) in one pass, in int32 arithmetic (the same bits as `>>> 0` after
  // each step, about twice as fast: no uint32 values above 2^31 to carry as doubles in the loop).
  let a = 0x811c9dc5 | 0;
  let b = (0x811c9dc5 ^ 0x9e3779b9) | 0;
  const n = json.length;
  for (let i = 0; i < n; i++) {
    const c = json.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193);
  }
  return `${(a >>> 0).toString(16).padStart(8, '0')}${(b >>> 0).toString(16).padStart(8, '0')}`;
}

export function toJsonl(lines: readonly TranscriptLine[]): string {
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}

export type ParsedTranscript = {
  header: TranscriptHeader;
  events: TranscriptEvent[];
  final: TranscriptFinal | null;
  /** Recorded with an older state format (1, which kept every earlier run's row): its digests are of those states. */
  olderStates?: boolean;
};

/** Parses a JSONL transcript; problems are values with the line number. */
export function parseTranscript(text: string): { ok: true; transcript: ParsedTranscript } | { ok: false; error: string } {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  let header: TranscriptHeader | null = null;
  const events: TranscriptEvent[] = [];
  let final: TranscriptFinal | null = null;
  let olderStates = false;
  for (const [i, raw] of lines.entries()) {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return { ok: false, error: `line ${i + 1}: not valid JSON` };
    }
    const r = TranscriptLine.safeParse(json);
    if (!r.success) {
      const issue = r.error.issues[0];
      return { ok: false, error: `line ${i + 1}: ${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'invalid record'}` };
    }
    if (r.data.kind === 'header') {
      if (header) return { ok: false, error: `line ${i + 1}: a second header` };
      header = r.data;
      const v = (json as { initial_state?: { version?: unknown } }).initial_state?.version;
      if (v !== header.initial_state.version) olderStates = true;
    } else if (!header) {
      return { ok: false, error: `line ${i + 1}: the first line must be the header` };
    } else if (r.data.kind === 'event') events.push(r.data);
    else final = r.data;
  }
  if (!header) return { ok: false, error: 'empty transcript: no header line' };
  return { ok: true, transcript: { header, events, final, ...(olderStates ? { olderStates } : {}) } };
}
