// Plays N whole runs in sequence for one player, bots speaking through the scripted brain. Characters, items,
// tickets and permanent cards carry over between runs as the rules say. Deterministic for a seed.
import { SeededRandom } from '../random.js';
import { rankToLetter } from '../rules/rank.js';
import type { PlayLanguage } from '../schema/enums.js';
import type { GameEvent } from '../run/events.js';
import { currentMoment, currentRun, initialState, type GameState } from '../run/state.js';
import { step, type StepContext, type StepResult } from '../run/step.js';
import type { Story } from '../story/format.js';
import { botUtterance, type BotName } from './bots.js';
import { scriptedTurn, type PlayerInput } from './play-turn.js';
import { finishCoverage, newCoverage, recordCoverage, type Coverage } from './coverage.js';
import { stateDigest, type TranscriptLine } from './transcript.js';

export type SimulateOptions = {
  runs: number;
  seed: number;
  bot: BotName;
  language?: PlayLanguage;
  /** A run that has not ended after this many turns is ended (End Current Run) and counted lost. */
  maxTurnsPerRun?: number;
  transcripts?: boolean;
  /**
   * Lean steps (StepContext.lean): the same states without building outputs or effects. On by default unless
   * transcripts are kept (they record the outputs). Without an onTurn hook, a lean simulation's turns also change the
   * run's state in place (StepContext.mutable): `state` is changed while a run plays, never after playRun returns.
   */
  lean?: boolean;
  onRun?: (index: number, summary: RunSummary, transcript: TranscriptLine[] | null) => void;
  /** Called with the state just before each player line (the moment is started). */
  onTurn?: (state: GameState) => void;
};

export type RunSummary = { index: number; status: string; rank: number; interactions: number; turns: number; ticket: boolean; aborted: boolean };

export type SimulationReport = {
  story_id: string;
  story_name: string;
  bot: BotName;
  seed: number;
  runs: number;
  ranks: Record<string, number>;
  won: number;
  lost: number;
  won_rate: number;
  mean_interactions_used: number;
  mean_turns: number;
  runs_until_first_rank_a: number | null;
  tickets_earned: number;
  aborted_runs: number;
  coverage: Coverage;
};

const USER = 'sim-player';

/**
 * A copy of `s` whose arrays, records and rows are its own (StepContext.mutable), given that `s` is the state run.create
 * made from `before` and nothing else holds it: only the rows it shares with `before` are copied (any row shared with
 * an older state is shared with `before` too; the rows run.create made are held by `s` alone).
 */
function ownCopy(s: GameState, before: GameState): GameState {
  const c = { ...s } as Record<string, unknown>;
  const b = before as unknown as Record<string, unknown>;
  for (const k in c) {
    const v = c[k];
    if (Array.isArray(v)) {
      const old = b[k];
      const rows = v.slice();
      if (Array.isArray(old) && old.length > 0) {
        for (let i = 0; i < rows.length; i++) {
          const r: unknown = rows[i];
          if (r !== null && typeof r === 'object' && old.includes(r)) rows[i] = { ...r };
        }
      }
      c[k] = rows;
    } else if (k === 'run') {
      if (v !== null && v === before.run) c[k] = { ...v };
    } else if (v !== null && typeof v === 'object') c[k] = { ...v };
  }
  return c as GameState;
}

/** Runs one simulation; `report()` can be called at any time (e.g. for a progress view). */
export class Simulation {
  readonly story: Story;
  readonly opts: SimulateOptions;
  state: GameState;
  readonly summaries: RunSummary[] = [];
  readonly coverage: Coverage;
  #r: SeededRandom;
  #now = Date.UTC(2026, 0, 1);
  #ticketsEarned = 0;
  readonly #lean: boolean;
  /** Turns change the state in place (see SimulateOptions.lean). */
  readonly #mutable: boolean;

  constructor(story: Story, opts: SimulateOptions) {
    this.story = story;
    this.opts = opts;
    this.state = initialState(USER, story.id, opts.seed);
    this.#r = new SeededRandom(opts.seed ^ 0xa5a5a5a5);
    this.coverage = newCoverage(story);
    this.#lean = !opts.transcripts && opts.lean !== false;
    this.#mutable = this.#lean && !opts.onTurn;
  }

  #ctx(): StepContext {
    return this.#lean ? { now: this.#now, story: this.story, lean: true } : { now: this.#now, story: this.story };
  }

  get done(): number {
    return this.summaries.length;
  }

  #apply(ev: GameEvent, result: StepResult, log: TranscriptLine[] | null): boolean {
    if (!result.ok) return false;
    this.state = result.state;
    if (log) log.push({ kind: 'event', index: log.length - 1, now: this.#now, event: ev, outputs: result.outputs, state_digest: stateDigest(this.state) });
    return true;
  }

  /** Plays the next run to its end. */
  playRun(): RunSummary {
    const index = this.summaries.length;
    const log: TranscriptLine[] | null = this.opts.transcripts
      ? [{ kind: 'header', format: 'looptale-transcript', version: 1, source: 'simulate', story_id: this.story.id, story_name: this.story.name, user_id: USER, seed: this.opts.seed, bot: this.opts.bot, run_index: index, initial_state: this.state }]
      : null;
    this.#now += 60_000;
    const create: GameEvent = { type: 'run.create', language: this.opts.language ?? 'english', reset_progress: false };
    const before = this.state;
    const created = step(before, create, this.#ctx());
    if (!created.ok) throw new Error(`run.create failed: ${created.error.message}`);
    this.#apply(create, created, log);
    recordCoverage(this.coverage, this.state, null);
    // This run's turns change a copy only this run holds: states handed out before stay as they were.
    if (this.#mutable) this.state = ownCopy(this.state, before);
    const maxTurns = this.opts.maxTurnsPerRun ?? 500;
    let turns = 0;
    let aborted = false;
    for (;;) {
      const run = currentRun(this.state);
      if (!run || run.loop_status !== 'loopStatusOnGoing') break;
      if (turns >= maxTurns) {
        const end: GameEvent = { type: 'run.end' };
        this.#apply(end, step(this.state, end, this.#ctx()), log);
        aborted = true;
        break;
      }
      const pm = currentMoment(this.state);
      const beforeRunId = this.state.run?.id;
      const start = !pm?.is_started;
      if (!start) this.opts.onTurn?.(this.state);
      const u = start ? { text: '' } : botUtterance(this.opts.bot, this.state, this.story, this.#r);
      this.#now += start ? 5_000 : 8_000;
      const input: PlayerInput = { input_id: this.#r.uuid(), transcription: u.text, is_starting_dialogue: start };
      if (u.selected_character_ids) input.selected_character_ids = u.selected_character_ids;
      const { event, result } = scriptedTurn(this.state, this.story, input, this.#now, this.#lean, this.#mutable);
      if (!this.#apply(event, result, log)) throw new Error(`turn failed: ${result.ok ? '' : result.error.message}`);
      recordCoverage(this.coverage, this.state, beforeRunId);
      if (!start) turns++;
    }
    const run = currentRun(this.state);
    let ticket = false;
    const unredeemed = this.state.tickets.find((t) => !t.is_redeemed);
    if (unredeemed && unredeemed.earned_in_player_story_id === run?.id) {
      ticket = true;
      this.#ticketsEarned++;
      // The player redeems the ticket at once, for their strongest character.
      const best = [...this.state.characters].filter((c) => c.card_type !== 'permanent').sort((a, b) => b.current_attack - a.current_attack)[0];
      if (best) {
        const redeem: GameEvent = { type: 'ticket.redeem', ticket_id: unredeemed.id, card: { kind: 'character', id: best.id } };
        this.#apply(redeem, step(this.state, redeem, this.#ctx()), log);
      }
    }
    const summary: RunSummary = {
      index, status: run?.loop_status ?? 'none', rank: run?.loop_rank ?? 7, interactions: run?.loop_current_number_of_interactions ?? 0,
      turns, ticket, aborted,
    };
    if (log) {
      log.push({
        kind: 'final', events: log.length - 1, state_digest: stateDigest(this.state), loop_status: summary.status, loop_rank: run?.loop_rank ?? null,
        loop_current_number_of_interactions: summary.interactions,
      });
    }
    this.summaries.push(summary);
    this.opts.onRun?.(index, summary, log);
    return summary;
  }

  report(): SimulationReport {
    finishCoverage(this.coverage);
    const ranks: Record<string, number> = { S: 0, A: 0, B: 0, C: 0, D: 0, E: 0, F: 0 };
    let won = 0;
    let inter = 0;
    let turns = 0;
    let firstA: number | null = null;
    for (const s of this.summaries) {
      const letter = rankToLetter(s.rank);
      ranks[letter] = (ranks[letter] ?? 0) + 1;
      if (s.status === 'loopStatusWon') won++;
      inter += s.interactions;
      turns += s.turns;
      if (firstA === null && s.rank <= 2) firstA = s.index + 1;
    }
    const n = this.summaries.length || 1;
    return {
      story_id: this.story.id, story_name: this.story.name, bot: this.opts.bot, seed: this.opts.seed, runs: this.summaries.length,
      ranks, won, lost: this.summaries.length - won, won_rate: Math.round((won / n) * 1000) / 1000,
      mean_interactions_used: Math.round((inter / n) * 100) / 100, mean_turns: Math.round((turns / n) * 100) / 100,
      runs_until_first_rank_a: firstA, tickets_earned: this.#ticketsEarned, aborted_runs: this.summaries.filter((s) => s.aborted).length,
      coverage: this.coverage,
    };
  }
}

export function simulate(story: Story, opts: SimulateOptions): SimulationReport {
  const sim = new Simulation(story, opts);
  for (let i = 0; i < opts.runs; i++) sim.playRun();
  return sim.report();
}
