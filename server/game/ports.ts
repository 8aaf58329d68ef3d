// What the game service and the turn pipeline need from the store (implemented by server/store/*). Kept narrow so
// they can be tested and reasoned about on their own. The one CommitRequest of the server is declared here.
import type { Effect } from '../../engine/run/effects.js';
import type { GameState } from '../../engine/run/state.js';
import type { GameOutput } from '../../engine/schema/game-output.js';
import type { PlayerStory } from '../../engine/schema/player.js';
import type { TranscriptLine } from '../../engine/sim/transcript.js';
import type { Story } from '../../engine/story/format.js';

/** One engine step to persist, all or nothing. */
export type CommitRequest = {
  userId: string;
  storyId: string;
  /** The version the state was loaded at; null when no state exists yet. */
  expectedVersion: number | null;
  state: GameState;
  /** The state as JSON when the caller already made it (canonicalStateJson: keys sorted); else the store makes it. */
  stateJson?: string;
  effects: readonly Effect[];
  /** The input that caused this step: recorded once, its outputs returned to a replay of it. */
  input?: { input_id: string; player_story_id: string; outputs: readonly GameOutput[] };
  /** Transcript lines written with the step (a spoken turn's line comes later, once, through appendTranscript). */
  transcript?: { player_story_id: string; lines: readonly TranscriptLine[] };
  /** The story version a run created by this step plays (kept for the run's life). */
  runVersion?: { player_story_id: string; story_version: number };
};

/** A run's owner, its story and the story version it plays (null: a run from before versions: the newest). */
export type RunOwner = { user_id: string; blueprint_story_id: string; story_version: number | null };

export type CommitResult =
  | { ok: true; version: number }
  | { ok: false; reason: 'conflict' }
  | { ok: false; reason: 'duplicate'; outputs: GameOutput[] };

export interface GameStorePort {
  loadState(userId: string, storyId: string, opts?: { refresh?: boolean }): Promise<{ state: GameState; version: number } | null>;
  commit(c: CommitRequest): Promise<CommitResult>;
  /** The outputs first sent for this input (each names its player_story_id), or null. */
  findProcessed(userId: string, inputId: string): Promise<GameOutput[] | null>;
  playerStoryOwner(playerStoryId: string): Promise<RunOwner | null>;
  playerStory(id: string): Promise<PlayerStory | null>;
  transcript(playerStoryId: string): Promise<TranscriptLine[]>;
  /** Appends lines after the run's last one (a spoken turn's line, written once its timings are known). */
  appendTranscript(playerStoryId: string, lines: readonly TranscriptLine[]): Promise<void>;
  /** Replaces the run's line of this turn (written by its commit) with the same line and its speech timings. */
  completeTranscriptLine(playerStoryId: string, line: TranscriptLine): Promise<void>;
}

export interface StoryStorePort {
  /** The newest published version. */
  getStory(id: string): Promise<Story | null>;
  /** The newest published version and its number (a new run plays it). */
  published(id: string): Promise<{ story: Story; version: number } | null>;
  /** One published version (a run plays the version it started on). */
  getStoryAt(id: string, version: number): Promise<Story | null>;
}
