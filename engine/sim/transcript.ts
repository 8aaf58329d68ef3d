// Run transcripts: one JSON line per record (header, every event with its outputs, final). Written by
// `simulate --save-transcripts` and by the server's transcript export; `looptale replay` reads both. The header
// carries the state before the run, so each run replays on its own, exactly.
import { z } from 'zod';
import { hashSeed } from '../random.js';
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
  return JSON.stringify(value, (_k, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const o = v as Record<string, unknown>;
    return Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));
  });
}

/** A short digest of a state, to compare states without storing them; independent of key order. */
export function stateDigest(s: GameState): string {
  const json = canonicalJson(s);
  return `${hashSeed(json).toString(16).padStart(8, '0')}${hashSeed(json, 0x9e3779b9).toString(16).padStart(8, '0')}`;
}

export function toJsonl(lines: readonly TranscriptLine[]): string {
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}

export type ParsedTranscript = { header: TranscriptHeader; events: TranscriptEvent[]; final: TranscriptFinal | null };

/** Parses a JSONL transcript; problems are values with the line number. */
export function parseTranscript(text: string): { ok: true; transcript: ParsedTranscript } | { ok: false; error: string } {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  let header: TranscriptHeader | null = null;
  const events: TranscriptEvent[] = [];
  let final: TranscriptFinal | null = null;
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
    } else if (!header) {
      return { ok: false, error: `line ${i + 1}: the first line must be the header` };
    } else if (r.data.kind === 'event') events.push(r.data);
    else final = r.data;
  }
  if (!header) return { ok: false, error: 'empty transcript: no header line' };
  return { ok: true, transcript: { header, events, final } };
}
