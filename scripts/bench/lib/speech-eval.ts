// Judging what a voice-understanding system made of a clip at a game state: right, wrong or not caught for an answer;
// rejected or taken (counted, ending the run) for a non-answer. The code under test decides (its brain) and steps (its
// engine), so the figures are what its server would have done.
import { MOMENTS } from '../../../engine/moments/registry.js';
import { performance } from 'node:perf_hooks';
import type { Decision } from '../../../engine/brain/decision.js';
import type { GameState } from '../../../engine/run/state.js';
import type { Story } from '../../../engine/story/format.js';
import type { Code, Heard, Understander } from './speech-code.js';
import { decides, type Stage } from './speech-stages.js';

export type Kind = 'sentence' | 'paraphrase' | 'non_answer' | 'sound' | 'human_answer' | 'human_non_answer';
export type Outcome = 'right' | 'wrong' | 'not_caught' | 'rejected' | 'taken';

export type Item = {
  set: string;
  kind: Kind;
  story: string;
  stage: Stage;
  voice: string;
  /** What the clip says (a sound's kind, a human clip's transcript). */
  text: string;
  /** Answers: a text whose typed decision is the one meant. */
  means?: string;
  wav: Uint8Array;
};

export type Judged = {
  set: string; kind: Kind; story: string; stage: string; voice: string; text: string;
  outcome: Outcome;
  heard: string | null;
  expected: string;
  got: string;
  counted: boolean;
  ends_run: boolean;
  /** Answers: the text typed (no speech) gives the decision meant. */
  typed_right: boolean | null;
  /** Non-answers: typed, the brain reads an answer in it here ("Alright then" may be a yes): reported apart. */
  typed_decides: boolean | null;
  ms: number;
  reason: string | null;
  features: Record<string, number | string | null> | null;
  /** A miss for want of confidence: what taking the words heard would have done. */
  would?: { outcome: Outcome; got: string; counted: boolean; ends_run: boolean } | null;
};

/** What a decision does, without the words it echoes; an assemble selection compared as a set. */
export function decisionKey(d: Decision): string {
  const battle = d.battle ? { kind: d.battle.kind, actor: d.battle.actor_id ?? null, target: d.battle.target_id ?? null, thematic: d.battle.thematic } : null;
  return JSON.stringify([d.matched, d.outcome, d.perfect, d.next_moment_id ?? null, battle, d.selection ? [...d.selection].sort() : null, d.upgrade ?? null, d.equip ?? null, d.award ?? null]);
}

/** A short label of a decision for people ("branch to The Drowned Steps", "defend by Tam Wick (thematic)"). */
export function describe(story: Story, state: GameState, d: Decision): string {
  const name = (id: string | undefined): string =>
    (id && (state.characters.find((c) => c.id === id)?.name ?? state.opponents.find((o) => o.id === id)?.name ?? state.items.find((i) => i.id === id)?.name)) || '?';
  const parts: string[] = [];
  if (d.matched.startsWith('branch:')) parts.push(`branch to ${story.moments.find((m) => m.id === d.next_moment_id)?.name.en ?? '?'}`);
  else if (d.matched) parts.push(`'${d.matched}'`);
  if (d.battle) parts.push(`${d.battle.kind} by ${name(d.battle.actor_id)}${d.battle.target_id ? ` on ${name(d.battle.target_id)}` : ''}${d.battle.thematic ? ' (thematic)' : ''}`);
  if (d.selection?.length) parts.push(`team ${d.selection.map(name).join(', ')}`);
  if (d.equip) parts.push(`equip ${name(d.equip.item_id)} on ${name(d.equip.character_id)}`);
  if (d.upgrade) parts.push(d.upgrade.stage === 'bet' ? `bet ${d.upgrade.bet ?? '?'} on ${name(d.upgrade.character_id)} ${d.upgrade.level ?? ''}`.trim() : `riddle ${d.upgrade.correct ? 'right' : 'wrong'}`);
  if (d.award && !d.matched) parts.push(`award ${d.award.reward_type}`);
  return parts.join(', ') || 'nothing (fallback)';
}

/** The turn the code under test would play with these words: counted? run ending? */
function play(code: Code, story: Story, state: GameState, text: string, d: Decision): { counted: boolean; ends: boolean } {
  const r = code.step(state, { type: 'turn', input_id: '00000000-0000-4000-8000-00000000000e', is_starting_dialogue: false, transcription: text, decision: d }, { now: Date.UTC(2026, 0, 3), story });
  if (!r.ok) return { counted: false, ends: false };
  const counted = r.outputs.some((o) => o.interaction_counted);
  const next = d.next_moment_id ? story.moments.find((m) => m.id === d.next_moment_id) : undefined;
  const ends = d.outcome === 'end_of_game' || (next ? MOMENTS[next.type].traits.ends === 'lost' : false) || r.state.run?.loop_status === 'loopStatusLost';
  return { counted, ends };
}

export async function judgeWith(code: Code, u: Understander, item: Item, story: Story, state: GameState): Promise<Judged> {
  const answer = item.kind === 'sentence' || item.kind === 'paraphrase' || item.kind === 'human_answer';
  const meant = answer ? code.decide(story, state, item.means ?? item.text) : null;
  const expected = meant ? describe(story, state, meant) : 'not an answer';
  const t0 = performance.now();
  let heard: Heard;
  try {
    heard = await u.understand(story, state, item.wav);
  } catch (err) {
    heard = { ok: false, heard: null, reason: `error: ${String(err).slice(0, 120)}` };
  }
  const ms = Math.round((performance.now() - t0) * 10) / 10;
  const typedRight = meant && item.kind === 'paraphrase' ? decisionKey(code.decide(story, state, item.text)) === decisionKey(meant) : null;
  const typedDecides = item.kind === 'non_answer' || item.kind === 'human_non_answer' ? decides(code.decide(story, state, item.text)) : null;
  const base = {
    set: item.set, kind: item.kind, story: item.story, stage: item.stage.key, voice: item.voice, text: item.text, expected,
    typed_right: typedRight, typed_decides: typedDecides, ms, features: heard.features ?? null,
  };
  if (!heard.ok) {
    // What taking the words heard would have done (for tuning the thresholds on a dump without decoding again).
    let would: Judged['would'] = null;
    if (heard.heard && heard.reason === 'unsure') {
      const d = code.decide(story, state, heard.heard);
      const p = play(code, story, state, heard.heard, d);
      would = { outcome: answer ? (meant && decisionKey(d) === decisionKey(meant) ? 'right' : 'wrong') : 'taken', got: describe(story, state, d), counted: p.counted, ends_run: p.ends };
    }
    return { ...base, outcome: answer ? 'not_caught' : 'rejected', heard: heard.heard, got: 'not caught', counted: false, ends_run: false, reason: heard.reason, would };
  }
  const d = code.decide(story, state, heard.text);
  const { counted, ends } = play(code, story, state, heard.text, d);
  const got = describe(story, state, d);
  const outcome: Outcome = answer ? (meant && decisionKey(d) === decisionKey(meant) ? 'right' : 'wrong') : 'taken';
  return { ...base, outcome, heard: heard.text, got, counted, ends_run: ends, reason: decides(d) ? null : 'matches nothing' };
}
