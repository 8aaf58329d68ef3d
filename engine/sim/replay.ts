// Replaying a saved run transcript offline: each event is folded through `step` again (turns re-decided by the
// scripted brain, or with their recorded decisions) and compared with what was recorded: outputs field by field,
// then the state digest. Pure: the CLI reads the files and prints.
import { decideScripted } from '../brain/scripted.js';
import type { GameEvent } from '../run/events.js';
import type { GameState } from '../run/state.js';
import { step } from '../run/step.js';
import type { GameOutput } from '../schema/game-output.js';
import type { Story } from '../story/format.js';
import { stateDigest, type ParsedTranscript } from './transcript.js';

export type TurnDiff = { index: number; event: string; said: string; moment: string; diffs: string[] };
export type ReplayReport = {
  events: number;
  replayed: number;
  diverged: TurnDiff[];
  final_digest_matches: boolean | null;
  state: GameState;
};

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** Replaces each distinct UUID by its order of first appearance, so runs with other row ids compare equal. */
export function canonicalIds(value: unknown): unknown {
  const seen = new Map<string, string>();
  return JSON.parse(JSON.stringify(value).replace(UUID, (id) => {
    const k = id.toLowerCase();
    let v = seen.get(k);
    if (!v) {
      v = `#${seen.size + 1}`;
      seen.set(k, v);
    }
    return v;
  })) as unknown;
}

/** Field-by-field differences between recorded and replayed outputs ("dialogue: 'a' != 'b'"). */
export function diffOutputs(recorded: readonly GameOutput[], replayed: readonly GameOutput[], opts: { ignoreIds?: boolean } = {}): string[] {
  const a = (opts.ignoreIds ? canonicalIds(recorded) : recorded) as GameOutput[];
  const b = (opts.ignoreIds ? canonicalIds(replayed) : replayed) as GameOutput[];
  const out: string[] = [];
  if (a.length !== b.length) out.push(`outputs: ${a.length} recorded, ${b.length} replayed`);
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] as Record<string, unknown>;
    const y = b[i] as Record<string, unknown>;
    for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) {
      const sx = JSON.stringify(x[k]);
      const sy = JSON.stringify(y[k]);
      if (sx !== sy) out.push(`${a.length > 1 ? `[${i}] ` : ''}${k}: ${clip(sx)} recorded, ${clip(sy)} replayed`);
    }
  }
  return out;
}

function clip(s: string | undefined): string {
  if (s === undefined) return 'absent';
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
}

export function describeEvent(ev: GameEvent): string {
  if (ev.type !== 'turn') return ev.type;
  return ev.is_starting_dialogue ? 'start' : 'say';
}

export function replayOffline(story: Story, t: ParsedTranscript, opts: { until?: number; decisions?: 'brain' | 'recorded' } = {}): ReplayReport {
  let state = t.header.initial_state;
  const diverged: TurnDiff[] = [];
  let replayed = 0;
  for (const [i, rec] of t.events.entries()) {
    if (opts.until !== undefined && i >= opts.until) break;
    let ev = rec.event;
    if (ev.type === 'turn' && (opts.decisions ?? 'brain') === 'brain') {
      const decision = decideScripted({ story, state, transcription: ev.transcription, is_starting_dialogue: ev.is_starting_dialogue, input_id: ev.input_id });
      ev = { ...ev, decision };
    }
    const moment = state.run?.current_player_moment_id ? state.moments.find((m) => m.id === state.run?.current_player_moment_id)?.blueprint_moment_id ?? '' : '';
    const momentName = story.moments.find((m) => m.id === moment)?.name.en ?? '';
    const said = ev.type === 'turn' ? ev.transcription : '';
    const r = step(state, ev, { now: rec.now, story });
    replayed++;
    if (!r.ok) {
      diverged.push({ index: i, event: describeEvent(ev), said, moment: momentName, diffs: [`step refused: ${r.error.code}: ${r.error.message}`] });
      continue;
    }
    const diffs = diffOutputs(rec.outputs, r.outputs);
    state = r.state;
    // A transcript of an older state format has digests of those states: its outputs are compared, not its digests.
    if (!t.olderStates && stateDigest(state) !== rec.state_digest) diffs.push(`state: digest ${stateDigest(state)} replayed, ${rec.state_digest} recorded`);
    if (diffs.length) diverged.push({ index: i, event: describeEvent(ev), said, moment: momentName, diffs });
  }
  const complete = opts.until === undefined || opts.until >= t.events.length;
  return {
    events: t.events.length,
    replayed,
    diverged,
    final_digest_matches: complete && t.final && !t.olderStates ? stateDigest(state) === t.final.state_digest : null,
    state,
  };
}
