// The authoritative game service: every change to a player's game goes through here and through the engine's `step`,
// in one store transaction per event. The WebSocket layer and the HTTP API are thin callers.
import { performance } from 'node:perf_hooks';
import type { Decision } from '../../engine/brain/decision.js';
import type { Effect } from '../../engine/run/effects.js';
import type { GameEvent } from '../../engine/run/events.js';
import type { GameState } from '../../engine/run/state.js';
import { initialState } from '../../engine/run/state.js';
import { step, type StepSuccess } from '../../engine/run/step.js';
import { LOOP_STATUS, type PlayLanguage } from '../../engine/schema/enums.js';
import type { EquipmentForging, GameOutput } from '../../engine/schema/game-output.js';
import type { CardModifierNotification } from '../../engine/schema/notification.js';
import type { PlayerStory } from '../../engine/schema/player.js';
import type { UserInput } from '../../engine/protocol/user-input.js';
import { stateDigest, type TranscriptLine } from '../../engine/sim/transcript.js';
import type { Story } from '../../engine/story/format.js';
import type { Logger } from '../log.js';
import type { AudioInput, Transcriber } from '../voice/transcriber.js';
import type { Brain } from './brain.js';
import { KeyedMutex } from './keyed-mutex.js';
import type { GameStorePort, StoryStorePort } from './ports.js';
import { momentSpeech } from './vocabulary.js';
import { turnErrorCode } from '../../engine/protocol/turn-errors.js';

export type TurnReply = {
  outputs: GameOutput[];
  forging: EquipmentForging[];
  modifiers: CardModifierNotification[];
  speak: Extract<Effect, { type: 'speak' }>[];
  replayed: boolean;
  language: PlayLanguage;
  story: Story | null;
  stages: Record<string, number>;
};

export class GameError extends Error {
  constructor(readonly code: string, message: string, readonly status = 400) {
    super(message);
  }
}

const MAX_COMMIT_ATTEMPTS = 4;

/** HTTP statuses of the engine's refusals (the rest are 400). */
const ENGINE_ERROR_STATUS: Record<string, number> = {
  'ticket/invalid': 404,
  'ticket/character_not_found': 404,
  'ticket/item_not_found': 404,
  'run/none': 404,
  'run/finished': 409,
  'turn/moment_complete': 409,
};

/** Thrown inside a turn when the state shows the input already processed (by another process). */
class AlreadyProcessed extends Error {}

export type GameServiceDeps = {
  store: GameStorePort;
  stories: StoryStorePort;
  brain: Brain;
  transcriber: Transcriber;
  log: Logger;
  now?: () => number;
  /** Seeds a user's first state in a story (tests pass a fixed one). */
  seed?: (userId: string, storyId: string) => number;
};

function randomSeed(): number {
  return Math.floor(Math.random() * 0x100000000) >>> 0;
}

export class GameService {
  readonly mutex = new KeyedMutex();
  #now: () => number;

  constructor(readonly deps: GameServiceDeps) {
    this.#now = deps.now ?? Date.now;
  }

  async #story(id: string): Promise<Story> {
    const story = await this.deps.stories.getStory(id);
    if (!story) throw new GameError('story/not_found', 'Story not found.', 404);
    return story;
  }

  /**
   * Applies one engine event to the user's state and commits it; retries from a fresh read on a version conflict
   * (another process moved first). `decide` runs before each attempt, outside the transaction.
   */
  async #apply(
    userId: string, storyId: string, build: (state: GameState, story: Story) => Promise<GameEvent>,
    extra: { input?: { input_id: string; player_story_id: string }; header?: boolean; seed?: number; refresh?: boolean; stages?: Record<string, number> } = {},
  ): Promise<{ result: StepSuccess; story: Story; duplicate?: GameOutput[] }> {
    const story = await this.#story(storyId);
    for (let attempt = 1; ; attempt++) {
      const loaded = await this.deps.store.loadState(userId, storyId, { refresh: extra.refresh ?? false });
      const before = loaded?.state ?? initialState(userId, storyId, extra.seed ?? (this.deps.seed ?? randomSeed)(userId, storyId));
      const event = await build(before, story);
      const now = this.#now();
      const result = step(before, event, { now, story });
      if (!result.ok) throw new GameError(result.error.code, result.error.message, ENGINE_ERROR_STATUS[result.error.code] ?? 400);
      const runId = result.state.run?.id ?? '';
      const lines: TranscriptLine[] = [];
      if (extra.header && result.run) {
        lines.push({
          kind: 'header', format: 'looptale-transcript', version: 1, source: 'server', story_id: story.id, story_name: story.name,
          user_id: userId, seed: before.rng, run_index: result.run.loop_number - 1, initial_state: before,
        });
      }
      lines.push({
        kind: 'event', index: 0, now, event, outputs: result.outputs, state_digest: stateDigest(result.state),
        ...(extra.stages ? { stages: { ...extra.stages } } : {}),
      });
      const committed = await this.deps.store.commit({
        userId, storyId, expectedVersion: loaded?.version ?? null, state: result.state, effects: result.effects,
        ...(extra.input ? { input: { ...extra.input, outputs: result.outputs } } : {}),
        transcript: { player_story_id: runId, lines },
      });
      if (committed.ok) return { result, story };
      if (committed.reason === 'duplicate') return { result, story, duplicate: committed.outputs };
      if (attempt >= MAX_COMMIT_ATTEMPTS) throw new GameError('store/busy', 'The game is busy: please try again.', 503);
    }
  }

  /** Starts a run (accounts spec §4 run creation) and returns the new player story. */
  /** `seed` applies only to a player's first state in the story (development servers use it to replay runs). */
  async createRun(userId: string, storyId: string, opts: { language: PlayLanguage; reset_progress?: boolean; seed?: number }): Promise<PlayerStory> {
    const { result } = await this.#apply(userId, storyId, () => Promise.resolve({
      type: 'run.create', language: opts.language, reset_progress: opts.reset_progress ?? false,
    }), { header: true, refresh: true, ...(opts.seed !== undefined ? { seed: opts.seed } : {}) });
    if (!result.run) throw new GameError('run/none', 'Failed to create a new game. Please try again.', 500);
    return result.run;
  }

  /** End Current Run: the run is lost with its rank stored. */
  async endRun(userId: string, playerStoryId: string): Promise<PlayerStory> {
    const owner = await this.#owned(userId, playerStoryId);
    return this.mutex.run(playerStoryId, async () => {
      const { result } = await this.#apply(userId, owner.blueprint_story_id, (state) => {
        if (state.run?.id !== playerStoryId || state.run.loop_status !== LOOP_STATUS.ongoing) {
          throw new GameError('run/finished', 'This run is over. Start a new run to play again.', 409);
        }
        return Promise.resolve({ type: 'run.end' });
      });
      if (!result.run) throw new GameError('run/none', 'Error ending run. Please try again.', 500);
      return result.run;
    });
  }

  async redeem(userId: string, storyId: string, ticketId: string, card: { kind: 'character' | 'item'; id: string }): Promise<NonNullable<StepSuccess['redeemed']>> {
    const { result } = await this.#apply(userId, storyId, () => Promise.resolve({ type: 'ticket.redeem', ticket_id: ticketId, card }), { refresh: true });
    if (!result.redeemed) throw new GameError('ticket/invalid', 'Invalid ticket or ticket already redeemed');
    return result.redeemed;
  }

  async #owned(userId: string, playerStoryId: string): Promise<{ user_id: string; blueprint_story_id: string }> {
    const owner = await this.deps.store.playerStoryOwner(playerStoryId);
    // Another user's run is reported exactly like a missing one.
    if (!owner || owner.user_id !== userId) throw new GameError('run/not_found', 'Unknown player story: it does not exist or is not yours.', 404);
    return owner;
  }

  /**
   * One USER_INPUT. A replayed input_id gets the first answer again and changes nothing; one turn at a time per
   * player story; the turn is persisted before anything is sent.
   */
  async turn(userId: string, input: UserInput, audio: AudioInput | null, stages: Record<string, number> = {}): Promise<TurnReply> {
    const t0 = performance.now();
    const owner = await this.#owned(userId, input.player_story_id);
    const replay = async (): Promise<TurnReply | null> => {
      const done = await this.deps.store.findProcessed(userId, input.input_id);
      if (!done) return null;
      if (done.some((o) => o.player_story_id !== input.player_story_id)) throw new GameError('turn/input_reused', 'This input_id was already used for another run.');
      return { outputs: done, forging: [], modifiers: [], speak: [], replayed: true, language: 'english', story: null, stages };
    };
    // A replay is found inside the per-run lock (one query per turn): a duplicate in flight waits there too.
    return this.mutex.run(input.player_story_id, async () => {
      const again = await replay();
      if (again) return again;
      let transcription = input.transcription;
      let decided: { decision: Decision; brain: string; fallback?: string } | null = null;
      const applied = await this.#apply(userId, owner.blueprint_story_id, async (state, s) => {
        // Another process committed this very input while we waited: answer it as a replay.
        if (state.processed_inputs.includes(input.input_id)) throw new AlreadyProcessed();
        const run = state.run;
        if (!run || run.id !== input.player_story_id || run.loop_status !== LOOP_STATUS.ongoing) {
          throw new GameError('run/finished', 'This run is over. Start a new run to play again.', 409);
        }
        const language: PlayLanguage = run.language === 'french' ? 'french' : 'english';
        if (transcription === undefined && !input.is_starting_dialogue) {
          if (!audio) throw new GameError('turn/no_input', 'Say something: send a transcription or audio.');
          const ts = performance.now();
          const heard = await this.deps.transcriber.transcribe({ audio, language, ...momentSpeech(s, state, language) });
          stages.stt = Math.round((performance.now() - ts) * 10) / 10;
          if (!heard.ok) throw new GameError(turnErrorCode(heard.message) ?? 'stt/failed', heard.message);
          transcription = heard.text;
        }
        const tb = performance.now();
        decided = await this.deps.brain.decide({ story: s, state, transcription: transcription ?? '', is_starting_dialogue: input.is_starting_dialogue, input_id: input.input_id });
        stages.brain = Math.round((performance.now() - tb) * 10) / 10;
        return {
          type: 'turn', input_id: input.input_id, is_starting_dialogue: input.is_starting_dialogue,
          transcription: transcription ?? '', decision: decided.decision,
          ...(input.selected_character_ids ? { selected_character_ids: input.selected_character_ids } : {}),
        };
      }, { input: { input_id: input.input_id, player_story_id: input.player_story_id }, stages }).catch(async (e: unknown) => {
        if (!(e instanceof AlreadyProcessed)) throw e;
        return (await replay()) ?? Promise.reject(new GameError('turn/duplicate_input', 'This input was already processed.'));
      });
      if ('replayed' in applied) return applied;
      const { result, story, duplicate } = applied;
      stages.total_server = Math.round((performance.now() - t0) * 10) / 10;
      const language: PlayLanguage = result.state.run?.language === 'french' ? 'french' : 'english';
      if (duplicate) return { outputs: duplicate, forging: [], modifiers: [], speak: [], replayed: true, language, story, stages };
      const reply: TurnReply = { outputs: result.outputs, forging: [], modifiers: [], speak: [], replayed: false, language, story, stages };
      for (const e of result.effects) {
        if (e.type === 'send_equipment_forging') reply.forging.push(e.payload);
        else if (e.type === 'send_card_modifiers') reply.modifiers.push(e.payload);
        else if (e.type === 'speak') reply.speak.push(e);
      }
      const d = decided as { brain: string; fallback?: string } | null;
      this.deps.log.info({
        user: userId, player_story_id: input.player_story_id, input_id: input.input_id, brain: d?.brain, fallback: d?.fallback,
        moment: result.outputs[0]?.blueprint_moment_id, complete: result.outputs.at(-1)?.complete_the_moment, stages,
      }, 'turn');
      return reply;
    });
  }

  /** Once the reply was spoken: the turn's full timings (tts first byte, total) go to a log line and its transcript. */
  async recordSpokenStages(userId: string, input: { input_id: string; player_story_id: string }, stages: Readonly<Record<string, number>>): Promise<void> {
    this.deps.log.info({ user: userId, player_story_id: input.player_story_id, input_id: input.input_id, stages }, 'turn spoken');
    await this.deps.store.addTranscriptStages(input.player_story_id, input.input_id, stages).catch((err: unknown) => {
      this.deps.log.warn({ err, input_id: input.input_id }, 'turn timings not added to the transcript');
    });
  }
}
