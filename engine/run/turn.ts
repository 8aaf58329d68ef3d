// One turn of play (game spec §4 "Moment flow"): the brain's decision applied to the current moment, interaction
// counting, completion, the next moment, end conditions, rank and ticket.
import { NOTIFICATION_MS } from '../schema/notification.js';
import type { PlayerMoment } from '../schema/player.js';
import type { GameOutput } from '../schema/game-output.js';
import { indexStory } from '../story/story-index.js';
import type { BlueprintMoment } from '../story/format.js';
import { MOMENTS } from '../moments/registry.js';
import type { RuleResult } from '../moments/play-hooks.js';
import { applyScoreAward } from './apply-cards.js';
import type { Draft } from './draft.js';
import { isFinished, finishRun } from './end-run.js';
import { enterMoment } from './enter-moment.js';
import { ERR, fail, type StepFailure } from './errors.js';
import type { TurnEvent } from './events.js';
import { buildOutput } from './output.js';
import { runLanguage } from './roster.js';
import { currentMoment, currentRun, momentById } from './state.js';
import { say } from './texts.js';
import { newTurnInfo, type TurnInfo } from './turn-info.js';
import { appendModelLine, appendTurnLines } from './dialogue-lines.js';

export type TurnResult = { ok: true; outputs: GameOutput[] } | StepFailure;

/** Keeps at most this many processed input ids per run (a run has at most a few hundred turns). */
const MAX_PROCESSED = 2000;


/** Adds the lines a decision used to line_memory (copied only when one changes). */
function rememberLines(d: Draft, used: Record<string, number>): void {
  const memory = d.state.line_memory;
  for (const k in used) {
    const v = used[k] as number;
    if (memory[k] === v && Object.hasOwn(memory, k)) continue;
    d.owned('line_memory')[k] = v;
  }
}

export function applyTurn(d: Draft, ev: TurnEvent): TurnResult {
  const run = currentRun(d.state);
  if (!run) return fail(ERR.noRun);
  if (isFinished(run)) return fail(ERR.runFinished);
  if (d.state.processed_inputs.includes(ev.input_id)) return fail(ERR.duplicateInput);
  const pm0 = currentMoment(d.state);
  if (!pm0) return fail(ERR.runFinished);
  if (pm0.completed_at) return fail(ERR.momentComplete);
  if (!ev.is_starting_dialogue && !pm0.is_started) return fail(ERR.notStarted);
  const blueprint = indexStory(d.story).moments.get(pm0.blueprint_moment_id);
  if (!blueprint) throw new Error(`moment ${pm0.blueprint_moment_id} missing from story`);

  const processed = d.owned('processed_inputs');
  processed.push(ev.input_id);
  if (processed.length > MAX_PROCESSED) processed.splice(0, processed.length - MAX_PROCESSED);
  rememberLines(d, ev.decision.lines_used);

  const info = newTurnInfo({
    input_id: ev.input_id, is_starting_dialogue: ev.is_starting_dialogue, transcription: ev.transcription,
    decision: ev.decision, player_moment_id: pm0.id, blueprint_moment_id: blueprint.id,
  });
  const outputs: GameOutput[] = [];
  const lang = runLanguage(d);

  // A repeated start (a reload on the start screen) only says the opening again.
  if (ev.is_starting_dialogue && pm0.is_started) {
    d.update('player_moments', pm0, { dialogue_history: appendModelLine(pm0.dialogue_history, ev.decision.reply, false, false) });
    if (!d.lean) outputs.push(buildOutput(d.state, info, ev.decision.reply));
    return { ok: true, outputs };
  }

  const d0 = ev.decision;
  const dialogue = appendTurnLines(pm0.dialogue_history, ev.is_starting_dialogue ? null : ev.transcription, d0.reply, d0.perfect, d0.cache_hit);
  const facts = d0.facts.length === 0 ? [...pm0.player_facts] : [...pm0.player_facts, ...d0.facts.filter((f) => !pm0.player_facts.includes(f))];
  let pm: PlayerMoment = d.edit('player_moments', pm0);
  pm.is_started = true;
  pm.dialogue_history = dialogue;
  pm.player_facts = facts;

  // Interactions: every player turn counts, except free ones (perfect answer or cache hit).
  if (!ev.is_starting_dialogue) {
    const free = d0.perfect || d0.cache_hit;
    const r = currentRun(d.state) ?? run;
    const interactions = r.loop_current_number_of_interactions + (free ? 0 : 1);
    const perfectAnswers = r.perfect_answers + (d0.perfect ? 1 : 0);
    const w = d.edit('player_stories', r);
    w.loop_current_number_of_interactions = interactions;
    w.perfect_answers = perfectAnswers;
    info.counted = !free;
    if (d0.perfect) info.notifications.push({ kind: 'perfect', id: d.uuid(), message: say('perfect', lang), duration: NOTIFICATION_MS.perfect });
    else if (d0.cache_hit) info.notifications.push({ kind: 'free', id: d.uuid(), message: say('free', lang), duration: NOTIFICATION_MS.free });
  }

  let complete = d0.outcome === 'complete';
  let endOfGame = d0.outcome === 'end_of_game';
  let secondLine = '';
  const traits = MOMENTS[blueprint.type].traits;
  if (ev.is_starting_dialogue && traits.selfCompleting) {
    complete = traits.ends !== 'lost';
    endOfGame = traits.ends === 'lost';
  } else if (!ev.is_starting_dialogue) {
    const r = applyMomentRules(d, blueprint, pm, info, ev, outputs);
    complete = r.complete ?? complete;
    endOfGame = endOfGame || r.lost;
    secondLine = r.secondLine;
  } else if (traits.completesByPlay) {
    complete = false; // These complete through play, never on their opening.
  }
  pm = momentById(d.state, pm.id) ?? pm;

  finishTurn(d, blueprint, pm, info, complete, endOfGame);
  if (!d.lean) outputs.push(buildOutput(d.state, info, secondLine || d0.reply));
  return { ok: true, outputs };
}

/** The rules of the moment's type (engine/moments/: `play.turn`), then the score award every type gives. */
function applyMomentRules(
  d: Draft, m: BlueprintMoment, pm: PlayerMoment, info: TurnInfo, ev: TurnEvent, outputs: GameOutput[],
): RuleResult {
  const res: RuleResult = { complete: null, lost: false, secondLine: '' };
  MOMENTS[m.type].play?.turn?.({ d, m, pm, info, ev, outputs }, res);
  applyScoreAward(d, m, info);
  return res;
}

/** Completion, the next moment, and the end conditions. */
function finishTurn(d: Draft, m: BlueprintMoment, pm: PlayerMoment, info: TurnInfo, complete: boolean, endOfGame: boolean): void {
  const run = currentRun(d.state);
  if (!run) return;
  if (endOfGame) {
    d.edit('player_moments', pm).completed_at = d.iso;
    info.end_of_game = true;
    endRun(d, run.id, false, info);
    return;
  }
  if (complete) {
    const w = d.edit('player_moments', pm);
    w.completed_at = d.iso;
    w.succeeded_at = d.iso;
    const counts = d.owned('completion_counts');
    counts[m.id] = (counts[m.id] ?? 0) + 1;
    info.complete = true;
    if (MOMENTS[m.type].traits.ends === 'won') {
      endRun(d, run.id, true, info);
      return;
    }
    const chosen = info.decision.next_moment_id;
    const next = chosen && m.transitions.some((t) => t.next_moment_id === chosen) ? chosen : m.transitions[0]?.next_moment_id ?? '';
    const entered = enterMoment(d, run.id, next);
    info.skipped = entered.skipped;
    if (entered.kind === 'end_of_game') {
      info.end_of_game = true;
      endRun(d, run.id, false, info);
      return;
    }
    info.next_moment_id = entered.moment.blueprint_moment_id;
  }
  // The cap: out of interactions with the story not won is a loss (an Epilogue waiting to start still wins).
  const r = currentRun(d.state);
  if (r && !isFinished(r) && r.loop_current_number_of_interactions >= r.loop_max_number_of_interactions) {
    const waiting = currentMoment(d.state);
    const waitingType = waiting ? indexStory(d.story).moments.get(waiting.blueprint_moment_id)?.type : undefined;
    if (waitingType === undefined || MOMENTS[waitingType].traits.ends !== 'won') endRun(d, r.id, false, info);
  }
}

function endRun(d: Draft, runId: string, won: boolean, info: TurnInfo): void {
  const ending = finishRun(d, runId, won);
  info.rank = ending.rank;
  info.golden = ending.golden_ticket_awarded;
  info.notifications.push(...ending.notifications);
}
