// The authoritative game service: every change to a player's game goes through the engine's `step` and one store
// transaction per event (commit-step.ts). The HTTP API calls it for runs and tickets; turns go through the turn
// pipeline (turn-pipeline.ts), which shares its per-run lock and its look-ups.
import type { GameEvent } from '../../engine/run/events.js';
import { initialState, type GameState } from '../../engine/run/state.js';
import type { StepSuccess } from '../../engine/run/step.js';
import { LOOP_STATUS, type PlayLanguage } from '../../engine/schema/enums.js';
import type { GameOutput } from '../../engine/schema/game-output.js';
import type { PlayerStory } from '../../engine/schema/player.js';
import type { Story } from '../../engine/story/format.js';
import type { Logger } from '../log.js';
import { GameError, stepAndCommit, type Loaded } from './commit-step.js';
import { Lru } from './lru.js';
import { KeyedMutex } from './keyed-mutex.js';
import type { GameStorePort, RunOwner, StoryStorePort } from './ports.js';
import { TranscriptTail } from './transcript-tail.js';

export { GameError } from './commit-step.js';

export type GameServiceDeps = {
  store: GameStorePort;
  stories: StoryStorePort;
  log: Logger;
  now?: () => number;
  /** Seeds a user's first state in a story (tests pass a fixed one). */
  seed?: (userId: string, storyId: string) => number;
  /** States kept in memory after their commit (turns read them instead of the database); 0 turns the cache off. */
  stateCacheSize?: number;
};

function randomSeed(): number {
  return Math.floor(Math.random() * 0x100000000) >>> 0;
}

/** Committed answers kept for replays: about a minute of turns at 10 turns/s, a few MB at most. */
const ANSWERS_KEPT = 512;

export class GameService {
  /** One change at a time per player story in this process (turns and run endings). */
  readonly mutex = new KeyedMutex();
  /** Where each run's next transcript line goes (a spoken turn's line is written after its commit). */
  readonly lines: TranscriptTail;
  readonly now: () => number;

  /**
   * The latest state this process committed per user and story, with its version. Safe with other processes: a
   * commit from a stale copy fails its version check, and the turn reads the database and steps again.
   */
  readonly #states: Lru<string, Loaded & { version: number }>;
  /** Player story -> owner and story: never changes once created. */
  readonly #owners = new Lru<string, RunOwner>(50_000);
  /**
   * The first outputs of the inputs this process committed lately, by user and input id (they never change once
   * committed). An input sent again (a reconnect after a dropped socket; the same input resent while the first was
   * still in flight, which waits for it in the run's lock) is answered from here without a database read: under load
   * each such read waited in the database's queue, one resend after another (#14 stalls in test:load).
   */
  readonly #answers = new Lru<string, GameOutput[]>(ANSWERS_KEPT);

  constructor(readonly deps: GameServiceDeps) {
    this.now = deps.now ?? Date.now;
    this.lines = new TranscriptTail(deps.store, deps.log);
    this.#states = new Lru(deps.stateCacheSize ?? 4096);
  }

  /** The state for a turn: this process's last committed copy, else the database's (without refreshing cards). */
  async stateForTurn(userId: string, storyId: string): Promise<Loaded> {
    const key = `${userId}\u0000${storyId}`;
    const hit = this.#states.max > 0 ? this.#states.get(key) : undefined;
    if (hit) return hit;
    const got = await this.deps.store.loadState(userId, storyId, { refresh: false });
    return got ?? { state: this.freshState(userId, storyId), version: null };
  }

  /** Keeps a committed state for the next turn (or forgets the user's copy when the commit did not happen here). */
  remember(userId: string, storyId: string, loaded: Loaded | null): void {
    const key = `${userId}\u0000${storyId}`;
    if (loaded && loaded.version !== null && this.#states.max > 0) this.#states.set(key, { state: loaded.state, version: loaded.version });
    else this.#states.delete(key);
  }

  /** The outputs this process committed for a user's input, if it still keeps them. */
  answered(userId: string, inputId: string): GameOutput[] | undefined {
    return this.#answers.get(`${userId}\u0000${inputId}`);
  }

  /** Keeps the outputs committed for a user's input (see `answered`). */
  rememberAnswer(userId: string, inputId: string, outputs: GameOutput[]): void {
    this.#answers.set(`${userId}\u0000${inputId}`, outputs);
  }

  /** Resolves when no change is in flight and every transcript line is written (graceful shutdown). */
  async idle(): Promise<void> {
    await this.mutex.idle();
    await this.lines.idle();
  }

  /** The newest published version of a story. */
  async story(id: string): Promise<Story> {
    const story = await this.deps.stories.getStory(id);
    if (!story) throw new GameError('story/not_found', 'Story not found.', 404);
    return story;
  }

  /** The story version a run plays: the one it started on, whatever was published since. */
  async storyOfRun(owner: RunOwner): Promise<Story> {
    if (owner.story_version === null) return this.story(owner.blueprint_story_id);
    const story = await this.deps.stories.getStoryAt(owner.blueprint_story_id, owner.story_version);
    if (!story) throw new GameError('story/not_found', 'Story not found.', 404);
    return story;
  }

  /** A user's first state in a story. */
  freshState(userId: string, storyId: string, seed?: number): GameState {
    return initialState(userId, storyId, seed ?? (this.deps.seed ?? randomSeed)(userId, storyId));
  }

  /** The player story's owner and story; another user's run is reported exactly like a missing one. */
  async owned(userId: string, playerStoryId: string): Promise<RunOwner> {
    let owner = this.#owners.get(playerStoryId) ?? null;
    if (!owner) {
      owner = await this.deps.store.playerStoryOwner(playerStoryId);
      if (owner) this.#owners.set(playerStoryId, owner);
    }
    if (!owner || owner.user_id !== userId) throw new GameError('run/not_found', 'Unknown player story: it does not exist or is not yours.', 404);
    return owner;
  }

  /** Applies one event that needs no dialogue (run creation and ending, ticket redemption) and commits it. */
  async #apply(userId: string, storyId: string, event: GameEvent | ((state: GameState) => GameEvent),
    opts: { header?: boolean; seed?: number; refresh?: boolean; story?: Story; runVersion?: number } = {}): Promise<StepSuccess> {
    const story = opts.story ?? await this.story(storyId);
    const committed = await stepAndCommit({
      store: this.deps.store, userId, story, refresh: opts.refresh ?? false, now: this.now,
      fresh: () => this.freshState(userId, storyId, opts.seed),
      event: (state) => (typeof event === 'function' ? event(state) : event),
      ...(opts.header ? { header: true } : {}),
      ...(opts.runVersion !== undefined ? { runVersion: opts.runVersion } : {}),
      line: () => ({}),
    }).catch((e: unknown) => {
      this.remember(userId, storyId, null);
      throw e;
    });
    this.remember(userId, storyId, committed.duplicate ? null : { state: committed.result.state, version: committed.version });
    return committed.result;
  }

  /** Starts a run (accounts spec §4 run creation) and returns the new player story. */
  /** `seed` applies only to a player's first state in the story (development servers use it to replay runs). */
  /** A run plays the newest published version of the story, and keeps it until it ends. */
  async createRun(userId: string, storyId: string, opts: { language: PlayLanguage; reset_progress?: boolean; seed?: number }): Promise<PlayerStory> {
    const published = await this.deps.stories.published(storyId);
    if (!published) throw new GameError('story/not_found', 'Story not found.', 404);
    const result = await this.#apply(userId, storyId, { type: 'run.create', language: opts.language, reset_progress: opts.reset_progress ?? false },
      { header: true, refresh: true, story: published.story, runVersion: published.version, ...(opts.seed !== undefined ? { seed: opts.seed } : {}) });
    if (!result.run) throw new GameError('run/none', 'Failed to create a new game. Please try again.', 500);
    // Its owner is known: the run's first turn does not read it back from the database.
    this.#owners.set(result.run.id, { user_id: result.run.user_id, blueprint_story_id: result.run.blueprint_story_id, story_version: published.version });
    return result.run;
  }

  /** End Current Run: the run is lost with its rank stored. */
  async endRun(userId: string, playerStoryId: string): Promise<PlayerStory> {
    const owner = await this.owned(userId, playerStoryId);
    return this.mutex.run(playerStoryId, async () => {
      // The run's last turn may still wait for its speech timings: its line goes before the ending's.
      await this.lines.settled(playerStoryId);
      const result = await this.#apply(userId, owner.blueprint_story_id, (state) => {
        if (state.run?.id !== playerStoryId || state.run.loop_status !== LOOP_STATUS.ongoing) {
          throw new GameError('run/finished', 'This run is over. Start a new run to play again.', 409);
        }
        return { type: 'run.end' };
      }, { story: await this.storyOfRun(owner) });
      if (!result.run) throw new GameError('run/none', 'Error ending run. Please try again.', 500);
      return result.run;
    });
  }

  async redeem(userId: string, storyId: string, ticketId: string, card: { kind: 'character' | 'item'; id: string }): Promise<NonNullable<StepSuccess['redeemed']>> {
    const result = await this.#apply(userId, storyId, { type: 'ticket.redeem', ticket_id: ticketId, card }, { refresh: true });
    if (!result.redeemed) throw new GameError('ticket/invalid', 'Invalid ticket or ticket already redeemed');
    return result.redeemed;
  }
}
