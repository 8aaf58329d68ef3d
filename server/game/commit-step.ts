// Step, then commit: the only part of a change to a player's game that is retried. The state is read (or given),
// the event is built for it, the engine steps, and the store commits the new state with the step's effects, the
// input and the transcript in one transaction. A version conflict (another process moved first) reads the state
// again and repeats; everything slow (speech recognition, the dialogue brain) happens before, outside the loop.
import { performance } from 'node:perf_hooks';
import type { GameEvent } from '../../engine/run/events.js';
import type { GameState } from '../../engine/run/state.js';
import { step, type StepSuccess } from '../../engine/run/step.js';
import type { GameOutput } from '../../engine/schema/game-output.js';
import { canonicalStateJson, digestOfJson, type TranscriptEvent, type TranscriptLine } from '../../engine/sim/transcript.js';
import type { Story } from '../../engine/story/format.js';
import type { GameStorePort } from './ports.js';

export class GameError extends Error {
  constructor(readonly code: string, message: string, readonly status = 400) {
    super(message);
  }
}

export const MAX_COMMIT_ATTEMPTS = 4;

/** HTTP statuses of the engine's refusals (the rest are 400). */
const ENGINE_ERROR_STATUS: Record<string, number> = {
  'ticket/invalid': 404,
  'ticket/character_not_found': 404,
  'ticket/item_not_found': 404,
  'run/none': 404,
  'run/finished': 409,
  'turn/moment_complete': 409,
};

export type Loaded = { state: GameState; version: number | null };

export type StepCommit = {
  store: GameStorePort;
  userId: string;
  story: Story;
  /** The state the caller already read (the first attempt uses it); later attempts read it again. */
  first?: Loaded;
  /** Reload permanent cards and tickets with the state (see GameRepo.loadState). */
  refresh: boolean;
  /** The state of a user who never played this story. */
  fresh: () => GameState;
  /** Builds the event for the state read; may throw a GameError (nothing is written). */
  event: (state: GameState, attempt: number) => GameEvent | Promise<GameEvent>;
  now: () => number;
  input?: { input_id: string; player_story_id: string };
  /** Starts the run's transcript with a header carrying the state before the step. */
  header?: boolean;
  /** The story version a run created by this step plays. */
  runVersion?: number;
  /**
   * The event's transcript line: written in the commit with these stage timings, or, when 'later', written without
   * them and returned
   * unwritten for the caller to append once (a spoken turn, whose line waits for its speech timings).
   */
  line: (result: StepSuccess) => { stages?: Record<string, number> } | 'later';
};

export type Committed = {
  result: StepSuccess;
  /** The event's transcript line (written in the commit; its stage timings come later when `line` said 'later'). */
  line: TranscriptEvent;
  later: boolean;
  /** The first outputs of this input, when another process had committed it: nothing was written. */
  duplicate?: GameOutput[];
  /** The state's version after the commit (the one read when it was a duplicate). */
  version: number | null;
  stepMs: number;
  commitMs: number;
  attempts: number;
};

export async function stepAndCommit(c: StepCommit): Promise<Committed> {
  let loaded: Loaded | undefined = c.first;
  let stepMs = 0;
  let commitMs = 0;
  for (let attempt = 1; ; attempt++) {
    if (!loaded) {
      const got = await c.store.loadState(c.userId, c.story.id, { refresh: c.refresh });
      loaded = got ?? { state: c.fresh(), version: null };
    }
    const before = loaded.state;
    const event = await c.event(before, attempt);
    const t0 = performance.now();
    const now = c.now();
    const result = step(before, event, { now, story: c.story });
    if (!result.ok) {
      // The caller's state (a process's last committed copy) may be stale: another process may have moved on (started
      // the moment this turn answers). A refusal stands only when the state read from the store refuses too.
      if (attempt === 1 && c.first) {
        loaded = undefined;
        continue;
      }
      throw new GameError(result.error.code, result.error.message, ENGINE_ERROR_STATUS[result.error.code] ?? 400);
    }
    const how = c.line(result);
    // One text of the new state serves the digest and the commit (rows unchanged since the last turn are not
    // serialised again: canonicalStateJson).
    const stateJson = canonicalStateJson(result.state);
    const line: TranscriptEvent = {
      kind: 'event', index: 0, now, event, outputs: result.outputs, state_digest: digestOfJson(stateJson),
      ...(how !== 'later' && how.stages ? { stages: how.stages } : {}),
    };
    const t1 = performance.now();
    stepMs += t1 - t0;
    const runId = result.state.run?.id ?? '';
    const lines: TranscriptLine[] = [];
    if (c.header && result.run) {
      lines.push({
        kind: 'header', format: 'looptale-transcript', version: 1, source: 'server', story_id: c.story.id, story_name: c.story.name,
        user_id: c.userId, seed: before.rng, run_index: result.run.loop_number - 1, initial_state: before,
      });
    }
    // A spoken turn's line is written in the commit too (a kill -9 during its speech must not lose it from the
    // transcript); its speech timings are filled in afterwards (GameStorePort.completeTranscriptLine).
    lines.push(line);
    const committed = await c.store.commit({
      userId: c.userId, storyId: c.story.id, expectedVersion: loaded.version, state: result.state, stateJson, effects: result.effects,
      ...(c.input ? { input: { ...c.input, outputs: result.outputs } } : {}),
      ...(lines.length > 0 ? { transcript: { player_story_id: runId, lines } } : {}),
      ...(c.runVersion !== undefined && result.run ? { runVersion: { player_story_id: result.run.id, story_version: c.runVersion } } : {}),
    });
    commitMs += performance.now() - t1;
    const timings = { stepMs, commitMs, attempts: attempt };
    const later = how === 'later';
    if (committed.ok) return { result, line, later, version: committed.version, ...timings };
    if (committed.reason === 'duplicate') return { result, line, later, duplicate: committed.outputs, version: loaded.version, ...timings };
    if (attempt >= MAX_COMMIT_ATTEMPTS) throw new GameError('store/busy', 'The game is busy: please try again.', 503);
    loaded = undefined;
  }
}
