// Prompt evaluations: cases (a player line at a moment, and what the decision should say) played against a brain.
// Each case gets a fresh engine state with a run started at the case's moment (run.create with first_moment_id, then
// the authored opening), so the brain sees exactly what it would see in play. Cases can also be derived from a
// story's authored answers: each answer's first phrase, expecting that answer's outcome and id.
import { MOMENTS } from '../../engine/moments/registry.js';
import type { Decision } from '../../engine/brain/decision.js';
import { decideScripted, type BrainInput } from '../../engine/brain/scripted.js';
import { currentMoment, initialState } from '../../engine/run/state.js';
import { step } from '../../engine/run/step.js';
import type { MomentType, PlayLanguage } from '../../engine/schema/enums.js';
import { hashSeed } from '../../engine/random.js';
import type { Story } from '../../engine/story/format.js';
import type { Brain } from '../game/brain.js';
import type { EvalCase } from '../store/prompts.js';

/** Cases from a story's authored answers (and Crossroad branch phrases) at moments of one type. */
export function deriveCases(story: Story, momentType: MomentType, language: PlayLanguage): EvalCase[] {
  // Only where authored answers decide: elsewhere the run's cards do (battle moves, bets, teams, items).
  if (MOMENTS[momentType].traits.runSpecific) return [];
  const fr = language === 'french';
  const cases: EvalCase[] = [];
  for (const m of story.moments.filter((x) => x.type === momentType)) {
    const progressFacts = m.answers.filter((a) => a.outcome === 'progress').flatMap((a) => a.facts);
    for (const a of m.answers) {
      const line = (fr ? a.match.fr?.[0] : undefined) ?? a.match.en[0];
      if (!line) continue;
      // A 'progress' answer completes the moment only when it alone teaches every fact (the run starts knowing none).
      const complete = a.outcome === 'complete' || (a.outcome === 'progress' && progressFacts.length > 0 && progressFacts.every((f) => a.facts.includes(f)));
      cases.push({
        moment_type: m.type, language, story_id: story.id, moment_id: m.id, player_line: line,
        expected: {
          outcome: complete ? 'complete' : 'continue', matched: a.id, perfect: a.perfect,
          ...(complete && a.next_moment_id ? { next_moment_id: a.next_moment_id } : {}),
        },
      });
    }
    if (MOMENTS[m.type].traits.branchesByWords) {
      for (const t of m.transitions) {
        const line = (fr ? t.match?.fr?.[0] : undefined) ?? t.match?.en[0];
        if (line) cases.push({ moment_type: m.type, language, story_id: story.id, moment_id: m.id, player_line: line, expected: { outcome: 'complete', next_moment_id: t.next_moment_id } });
      }
    }
  }
  return cases;
}

const EVAL_NOW = Date.UTC(2026, 0, 1);

function caseInputId(index: number, turn: number): string {
  return `e0a10000-0000-4000-8000-${(index * 10 + turn).toString().padStart(12, '0')}`;
}

/** The brain input for a case: a fresh state, a run created at the case's moment and started (opening said). */
export function caseInput(story: Story, c: EvalCase, index: number): { ok: true; input: BrainInput } | { ok: false; error: string } {
  const ctx = { now: EVAL_NOW, story };
  let state = initialState('looptale-eval', story.id, hashSeed(`${c.moment_id}|${c.player_line}`, index));
  const created = step(state, { type: 'run.create', language: c.language, reset_progress: false, first_moment_id: c.moment_id }, ctx);
  if (!created.ok) return { ok: false, error: `${created.error.code}: ${created.error.message}` };
  state = created.state;
  const at = currentMoment(state)?.blueprint_moment_id;
  if (at !== c.moment_id) return { ok: false, error: `the run could not start at moment ${c.moment_id} (it is at ${at ?? 'no moment'}: skipped or unknown)` };
  const opening = { story, state, transcription: '', is_starting_dialogue: true, input_id: caseInputId(index, 0) };
  const started = step(state, { type: 'turn', input_id: opening.input_id, is_starting_dialogue: true, transcription: '', decision: decideScripted(opening) }, { now: EVAL_NOW + 1000, story });
  if (started.ok) state = started.state;
  return { ok: true, input: { story, state, transcription: c.player_line, is_starting_dialogue: false, input_id: caseInputId(index, 1) } };
}

/** The expected fields the decision gets wrong, as "field: expected x, got y". */
export function mismatches(expected: EvalCase['expected'], d: Decision): string[] {
  const out: string[] = [];
  if (expected.outcome !== undefined && d.outcome !== expected.outcome) out.push(`outcome: expected ${expected.outcome}, got ${d.outcome}`);
  if (expected.next_moment_id !== undefined && d.next_moment_id !== expected.next_moment_id) out.push(`next_moment_id: expected ${expected.next_moment_id}, got ${d.next_moment_id ?? 'none'}`);
  if (expected.perfect !== undefined && d.perfect !== expected.perfect) out.push(`perfect: expected ${String(expected.perfect)}, got ${String(d.perfect)}`);
  if (expected.matched !== undefined && d.matched !== expected.matched) out.push(`matched: expected '${expected.matched}', got '${d.matched}'`);
  return out;
}

export type CaseResult = {
  index: number;
  moment_type: MomentType;
  moment_id: string;
  language: PlayLanguage;
  player_line: string;
  expected: EvalCase['expected'];
  actual: { outcome: string; next_moment_id: string | null; perfect: boolean; matched: string; reply: string } | null;
  pass: boolean;
  mismatches: string[];
  brain: string | null;
  fallback: string | null;
  latency_ms: number;
};

export type EvaluationResult = { pass_rate: number; passed: number; total: number; results: CaseResult[] };

/**
 * Plays every case against the brain. A case the LLM brain could not answer itself (it fell back to the scripted
 * brain) fails: the evaluation measures the prompt, not the safety net.
 */
export async function runEvaluation(cases: readonly EvalCase[], deps: { brain: Brain; story: (id: string) => Promise<Story | null> }): Promise<EvaluationResult> {
  const results: CaseResult[] = [];
  for (const [index, c] of cases.entries()) {
    const base = { index, moment_type: c.moment_type, moment_id: c.moment_id, language: c.language, player_line: c.player_line, expected: c.expected };
    const story = await deps.story(c.story_id);
    const input = story ? caseInput(story, c, index) : { ok: false as const, error: `story ${c.story_id} not found (give it with --story or import it)` };
    if (!input.ok) {
      results.push({ ...base, actual: null, pass: false, mismatches: [input.error], brain: null, fallback: null, latency_ms: 0 });
      continue;
    }
    const t0 = performance.now();
    const r = await deps.brain.decide(input.input);
    const d = r.decision;
    const wrong = mismatches(c.expected, d);
    if (r.fallback) wrong.unshift(`fell back to the scripted brain (${r.fallback})`);
    results.push({
      ...base,
      actual: { outcome: d.outcome, next_moment_id: d.next_moment_id ?? null, perfect: d.perfect, matched: d.matched, reply: d.reply },
      pass: wrong.length === 0, mismatches: wrong, brain: r.brain, fallback: r.fallback ?? null, latency_ms: Math.round(performance.now() - t0),
    });
  }
  const passed = results.filter((r) => r.pass).length;
  return { pass_rate: results.length > 0 ? passed / results.length : 0, passed, total: results.length, results };
}
