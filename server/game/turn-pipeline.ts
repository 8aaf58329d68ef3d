// The turn pipeline: one USER_INPUT from a decoded frame to the frames sent, one way, each stage once:
//   replay check -> read state -> speech to text -> brain        (outside the commit, never repeated)
//   -> step -> commit                                            (the only part retried, on a version conflict)
//   -> GAME_OUTPUT frames -> speech (AUDIO_ANSWER) -> timings     (metrics, the turn's log line, its transcript line)
// The transport only decodes frames, hands them here with a sink, and encodes what comes back. A replayed input_id
// gets its first answer again and changes nothing; one turn at a time per player story; the turn is persisted before
// anything is sent. A spoken turn's transcript line is written once, when its speech timings are known. A turn reads
// no row it does not need: the run's owner and the state come from this process's memory when it has them.
import { performance } from 'node:perf_hooks';
import type { Decision } from '../../engine/brain/decision.js';
import type { ServerFrame } from '../../engine/protocol/frames.js';
import { turnErrorCode } from '../../engine/protocol/turn-errors.js';
import type { UserInput } from '../../engine/protocol/user-input.js';
import type { TurnEvent } from '../../engine/run/events.js';
import type { StepSuccess } from '../../engine/run/step.js';
import { currentMoment, type GameState } from '../../engine/run/state.js';
import { LOOP_STATUS, type PlayLanguage } from '../../engine/schema/enums.js';
import type { GameOutput } from '../../engine/schema/game-output.js';
import { canonicalJson, type TranscriptEvent } from '../../engine/sim/transcript.js';
import type { Story } from '../../engine/story/format.js';
import type { Logger } from '../log.js';
import { speakLines, type SpeakEffect } from '../voice/speak.js';
import type { Synthesizer } from '../voice/synthesizer.js';
import type { AudioInput, Transcriber } from '../voice/transcriber.js';
import { transcriberListener, type Listener } from '../voice/listener.js';
import type { VoiceMissPort } from '../store/voice-misses.js';
import { notCaughtTurn } from '../../engine/run/not-caught.js';
import { KeyedMutex } from './keyed-mutex.js';
import type { Brain } from './brain.js';
import { GameError, stepAndCommit } from './commit-step.js';
import type { GameStorePort } from './ports.js';
import type { GameService } from './service.js';
import type { TranscriptSlot } from './transcript-tail.js';
import { msSince, stageRecord, type TurnStages } from './turn-stages.js';

/** A decoded USER_INPUT, as the transport hands it over. */
export type TurnRequest = {
  userId: string;
  input: UserInput;
  audio: AudioInput | null;
  /** performance.now() when the frame arrived: the origin of to_game_output, to_first_audio and total. */
  receivedAt: number;
  decodeMs: number;
};

/** Sends one frame to the player's socket; false when the socket is gone (the pipeline then stops sending). */
export type FrameSink = (frame: ServerFrame) => boolean;

export type TurnOutcome =
  | { kind: 'played'; stages: TurnStages }
  | { kind: 'replayed' }
  | { kind: 'failed'; code: string };

export type TurnPipelineDeps = {
  game: GameService;
  store: GameStorePort;
  brain: Brain;
  transcriber: Transcriber;
  /** What audio is heard with (words or a miss); by default the transcriber's words, with no check. */
  listener?: Listener;
  /** Where misses are recorded (and counted, and replayed); without it a miss is answered but not kept. */
  misses?: VoiceMissPort;
  /** Days the words of a miss are kept (0: never stored). */
  missRetentionDays?: number;
  synthesizer: Synthesizer | null;
  log: Logger;
  /** Per-turn stage timings for GET /metrics. */
  metrics?: { observe(stages: Readonly<Record<string, number>>): void; errors: number };
};

/** A spoken turn's figures are recorded when its first audio is out, or after this long without it. */
const TIMINGS_WAIT_MS = 10_000;

/** What a committed turn still has to do once the run's lock is released. */
type After = {
  result: StepSuccess;
  speak: SpeakEffect[];
  decided: { brain: string; fallback?: string };
  line: TranscriptEvent;
  slot: TranscriptSlot | null;
};

/** The state read for a turn shows this input already committed (by another process): answer it as a replay. */
class AlreadyProcessed extends Error {}

/** What the brain looked at: when a conflict changes it, the decision is made again (speech is never heard twice). */
function decisionBasis(s: GameState): string {
  return canonicalJson([s.rng, s.run, currentMoment(s) ?? null, s.characters, s.items, s.character_items, s.opponents, s.line_memory]);
}

function languageOf(s: GameState): PlayLanguage {
  return s.run?.language === 'french' ? 'french' : 'english';
}

/** A spoken turn the game did not catch: answered, recorded, never played. */
type Missed = { speak: SpeakEffect; reason: string; miss_number: number };

export class TurnPipeline {
  readonly #listener: Listener;
  /**
   * One user's audio is heard one clip at a time, whatever number of sockets and runs they play on: decoders and
   * recognisers serve the clips of every user in turn, so no one account holds them for everyone else.
   */
  readonly #hearing = new KeyedMutex();

  constructor(readonly deps: TurnPipelineDeps) {
    this.#listener = deps.listener ?? transcriberListener(deps.transcriber, { gate: false });
  }

  /** Plays one turn and sends its frames; never throws (failures are sent as ERROR_MESSAGE). */
  async run(req: TurnRequest, send: FrameSink): Promise<TurnOutcome> {
    try {
      return await this.#run(req, send);
    } catch (err) {
      if (this.deps.metrics) this.deps.metrics.errors++;
      if (err instanceof GameError) {
        send({ type: 'ERROR_MESSAGE', message: err.message });
        return { kind: 'failed', code: err.code };
      }
      this.deps.log.error({ err, user: req.userId }, 'turn failed');
      send({ type: 'ERROR_MESSAGE', message: 'Unexpected error occurred' });
      return { kind: 'failed', code: 'internal' };
    }
  }

  async #replay(userId: string, input: UserInput): Promise<GameOutput[] | null> {
    const done = this.deps.game.answered(userId, input.input_id) ?? await this.deps.store.findProcessed(userId, input.input_id);
    if (!done) return null;
    return this.#sameRun(input, done);
  }

  #sameRun(input: UserInput, outputs: GameOutput[]): GameOutput[] {
    if (outputs.some((o) => o.player_story_id !== input.player_story_id)) throw new GameError('turn/input_reused', 'This input_id was already used for another run.');
    return outputs;
  }

  #sendReplay(outputs: readonly GameOutput[], send: FrameSink): TurnOutcome {
    for (const output of outputs) send({ type: 'GAME_OUTPUT', output });
    return { kind: 'replayed' };
  }

  async #run(req: TurnRequest, send: FrameSink): Promise<TurnOutcome> {
    const { game, store } = this.deps;
    const { userId, input } = req;
    const t0 = performance.now();
    const stages: TurnStages = { decode: req.decodeMs };
    const owner = await game.owned(userId, input.player_story_id);
    const played = await game.mutex.run(input.player_story_id, async (): Promise<{ outcome: TurnOutcome; after?: After; missed?: Missed }> => {
      // 1. Read the state (this process's last committed copy when it has one) and decide, outside the commit.
      const story = await game.storyOfRun(owner);
      let first = await game.stateForTurn(userId, story.id);
      // This process's copy may be stale: another process may have created a run or ended one since. Read the state
      // again before refusing the input or looking it up as another run's (a stale copy must never refuse a turn).
      if (first.state.run?.id !== input.player_story_id || first.state.run.loop_status !== LOOP_STATUS.ongoing) {
        game.remember(userId, story.id, null);
        first = await game.stateForTurn(userId, story.id);
      }
      // A replay is found inside the per-run lock: a duplicate in flight waits there too. An input that the state
      // does not list for its current run is new (a copy that another process made stale is caught by the commit).
      const known = first.state.processed_inputs.includes(input.input_id);
      if (known || first.state.run?.id !== input.player_story_id) {
        const again = await this.#replay(userId, input);
        if (again) return { outcome: this.#sendReplay(again, send) };
        if (known) throw new GameError('turn/duplicate_input', 'This input was already processed.');
      } else if (req.audio && input.transcription === undefined && !input.is_starting_dialogue && this.deps.misses) {
        // Audio answered as a miss is kept beside the state, not in it: answer a resend (after a dropped socket, or
        // to a restarted process) from there, without hearing it again (#14: replays on a cold server).
        const again = await this.#replay(userId, input);
        if (again) return { outcome: this.#sendReplay(again, send) };
      }
      this.#check(first.state, input);
      const heard = await this.#hear(req, story, first.state, stages);
      if (typeof heard !== 'string') return this.#miss(req, story, first.state, heard, stages, send);
      const transcription = heard;
      const decide = async (state: GameState): Promise<{ decision: Decision; brain: string; fallback?: string }> => {
        const tb = performance.now();
        const d = await this.deps.brain.decide({ story, state, transcription, is_starting_dialogue: input.is_starting_dialogue, input_id: input.input_id });
        stages.brain = Math.round(((stages.brain ?? 0) + (performance.now() - tb)) * 10) / 10;
        return d;
      };
      let decided = await decide(first.state);
      const basis = { state: first.state, key: null as string | null };

      // 2. Step and commit, retrying only these. A spoken turn's transcript line waits for its speech timings, and
      // a line that would overtake one still waiting takes its place after it.
      const synth = this.deps.synthesizer;
      const event = async (state: GameState, attempt: number): Promise<TurnEvent> => {
        if (attempt > 1) {
          this.#check(state, input);
          basis.key ??= decisionBasis(basis.state);
          if (decisionBasis(state) !== basis.key) {
            decided = await decide(state);
            basis.state = state;
            basis.key = null;
          }
        }
        return {
          type: 'turn', input_id: input.input_id, is_starting_dialogue: input.is_starting_dialogue, transcription, decision: decided.decision,
          ...(input.selected_character_ids ? { selected_character_ids: input.selected_character_ids } : {}),
        };
      };
      let committed;
      try {
        committed = await stepAndCommit({
          store, userId, story, first, refresh: false, now: game.now, fresh: () => game.freshState(userId, story.id), event,
          input: { input_id: input.input_id, player_story_id: input.player_story_id },
          line: (r) => ((synth && r.effects.some((e) => e.type === 'speak')) || game.lines.pending(input.player_story_id) ? 'later' : { stages: stageRecord(stages) }),
        });
      } catch (e) {
        game.remember(userId, story.id, null);
        if (!(e instanceof AlreadyProcessed)) throw e;
        const outputs = await this.#replay(userId, input);
        if (!outputs) throw new GameError('turn/duplicate_input', 'This input was already processed.');
        return { outcome: this.#sendReplay(outputs, send) };
      }
      const { result, duplicate } = committed;
      stages.step = Math.round(committed.stepMs * 100) / 100;
      stages.commit = Math.round(committed.commitMs * 10) / 10;
      if (committed.attempts > 1) stages.attempts = committed.attempts;
      stages.total_server = msSince(t0);
      game.remember(userId, story.id, duplicate ? null : { state: result.state, version: committed.version });
      game.rememberAnswer(userId, input.input_id, duplicate ?? result.outputs);
      if (duplicate) return { outcome: this.#sendReplay(this.#sameRun(input, duplicate), send) };
      const slot = committed.later ? game.lines.reserve(input.player_story_id) : null;
      // The next words will be heard at the new state: its speech models are built now, while the reply is spoken.
      void this.#listener.prepare?.(story, result.state, languageOf(result.state)).catch(() => undefined);

      // 3. Frames.
      for (const output of result.outputs) send({ type: 'GAME_OUTPUT', output });
      const speak: SpeakEffect[] = [];
      for (const e of result.effects) {
        if (e.type === 'send_equipment_forging') send({ type: 'EQUIPMENT_FORGING', payload: e.payload });
        else if (e.type === 'send_card_modifiers') send({ type: 'CARD_MODIFIER_NOTIFICATION', payload: e.payload });
        else if (e.type === 'speak') speak.push(e);
      }
      stages.to_game_output = msSince(req.receivedAt);
      return { outcome: { kind: 'played', stages }, after: { result, speak, decided, line: committed.line, slot } };
    });
    if (played.missed) {
      await this.#speakMiss(req, played.missed, stages, send);
      return played.outcome;
    }
    if (!played.after) return played.outcome;

    // 4. Speech (after the run's lock: the player's next turn does not wait for this one's voice), then 5. timings,
    // once the first audio is out (or none came, or it is late).
    const { result, speak, decided, line, slot } = played.after;
    const timings = (): void => {
      if (stages.to_first_audio !== undefined) stages.tts_first_byte = Math.round((stages.to_first_audio - (stages.to_game_output ?? 0)) * 10) / 10;
      stages.total = stages.to_first_audio ?? stages.to_game_output;
      const record = stageRecord(stages);
      this.deps.metrics?.observe(record);
      this.deps.log.info({
        user: userId, player_story_id: input.player_story_id, input_id: input.input_id, brain: decided.brain, fallback: decided.fallback,
        moment: result.outputs[0]?.blueprint_moment_id, complete: result.outputs.at(-1)?.complete_the_moment, stages: record,
      }, 'turn');
      slot?.fill([{ ...line, stages: record }]);
    };
    const synth = this.deps.synthesizer;
    if (!synth || speak.length === 0) {
      timings();
      await slot?.written;
      return played.outcome;
    }
    let firstOut!: () => void;
    const firstAudio = new Promise<void>((r) => (firstOut = r));
    const speaking = speakLines(synth, speak, send, this.deps.log, (firstChunkMs) => {
      stages.to_first_audio = msSince(req.receivedAt);
      stages.tts_first_chunk = firstChunkMs;
      firstOut();
    }).then((s) => {
      if (s.firstChunkMs === null) stages.tts_first_chunk = -1;
    });
    let late: NodeJS.Timeout | undefined;
    await Promise.race([firstAudio, speaking, new Promise<void>((r) => (late = setTimeout(r, TIMINGS_WAIT_MS)))]);
    clearTimeout(late);
    timings();
    await Promise.all([speaking, slot?.written]);
    return played.outcome;
  }

  /** Refuses a turn the state cannot take: the input already committed elsewhere, or the run not current. */
  #check(state: GameState, input: UserInput): void {
    if (state.processed_inputs.includes(input.input_id)) throw new AlreadyProcessed();
    const run = state.run;
    if (!run || run.id !== input.player_story_id || run.loop_status !== LOOP_STATUS.ongoing) {
      throw new GameError('run/finished', 'This run is over. Start a new run to play again.', 409);
    }
  }

  /** The player's words: typed, or heard in the audio (words, or a miss). */
  async #hear(req: TurnRequest, story: Story, state: GameState, stages: TurnStages): Promise<string | { reason: string; heard: string | null; recogniser: string }> {
    const { input, audio } = req;
    if (input.transcription !== undefined || input.is_starting_dialogue) return input.transcription ?? '';
    if (!audio) throw new GameError('turn/no_input', 'Say something: send a transcription or audio.');
    const language = languageOf(state);
    const ts = performance.now();
    const heard = await this.#hearing.run(req.userId, () => this.#listener.hear({ story, state, language, audio }));
    stages.stt = msSince(ts);
    if (heard.ok) return heard.text;
    if (heard.miss) return { reason: heard.reason, heard: heard.heard, recogniser: heard.recogniser };
    throw new GameError(turnErrorCode(heard.message) ?? 'stt/failed', heard.message);
  }

  /**
   * A miss: the current state's GAME_OUTPUT with `not_caught` (the apology, a hint, from the second miss in a row the
   * choices), recorded with the input (a replay gets it again) and nothing else: no step, no interaction counted.
   */
  async #miss(req: TurnRequest, story: Story, state: GameState, heard: { reason: string; heard: string | null; recogniser: string }, stages: TurnStages, send: FrameSink): Promise<{ outcome: TurnOutcome; missed?: Missed }> {
    const { input, userId } = req;
    const pm = currentMoment(state);
    const turnIndex = pm?.dialogue_history.length ?? 0;
    const before = pm && this.deps.misses ? await this.deps.misses.missesInRow(pm.id, turnIndex) : 0;
    const turn = notCaughtTurn(story, state, { input_id: input.input_id, miss_number: before + 1, reason: heard.reason });
    if (!turn) throw new GameError('run/finished', 'This run is over. Start a new run to play again.', 409);
    if (this.deps.misses) {
      const kept = (this.deps.missRetentionDays ?? 30) > 0;
      const r = await this.deps.misses.record({
        user_id: userId, input_id: input.input_id, player_story_id: input.player_story_id, player_moment_id: turn.where.player_moment_id,
        blueprint_story_id: story.id, blueprint_moment_id: turn.where.blueprint_moment_id, stage: turn.where.stage, turn_index: turn.where.turn_index,
        miss_number: before + 1, reason: heard.reason, heard: kept ? heard.heard : null, recogniser: heard.recogniser, language: languageOf(state),
      }, [turn.output]);
      if (!r.ok) return { outcome: this.#sendReplay(this.#sameRun(input, r.outputs), send) };
      this.deps.game.rememberAnswer(userId, input.input_id, [turn.output]);
    }
    send({ type: 'GAME_OUTPUT', output: turn.output });
    stages.to_game_output = msSince(req.receivedAt);
    return { outcome: { kind: 'played', stages }, missed: { speak: turn.speak, reason: heard.reason, miss_number: before + 1 } };
  }

  /** Speaks a miss's apology and hint (after the run's lock), then its timings and log line. */
  async #speakMiss(req: TurnRequest, missed: Missed, stages: TurnStages, send: FrameSink): Promise<void> {
    const synth = this.deps.synthesizer;
    if (synth) {
      await speakLines(synth, [missed.speak], send, this.deps.log, (firstChunkMs) => {
        stages.to_first_audio = msSince(req.receivedAt);
        stages.tts_first_chunk = firstChunkMs;
      });
    }
    if (stages.to_first_audio !== undefined) stages.tts_first_byte = Math.round((stages.to_first_audio - (stages.to_game_output ?? 0)) * 10) / 10;
    stages.total = stages.to_first_audio ?? stages.to_game_output;
    const record = stageRecord(stages);
    this.deps.metrics?.observe(record);
    this.deps.log.info({
      user: req.userId, player_story_id: req.input.player_story_id, input_id: req.input.input_id, not_caught: missed.reason,
      miss_number: missed.miss_number, stages: record,
    }, 'turn not caught');
  }
}
