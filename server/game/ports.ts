// What the game service needs from the store (implemented by server/store/*). Kept narrow so the service can be
// tested and reasoned about on its own.
import type { Effect } from '../../engine/run/effects.js';
import type { GameState } from '../../engine/run/state.js';
import type { GameOutput } from '../../engine/schema/game-output.js';
import type { PlayerStory } from '../../engine/schema/player.js';
import type { TranscriptLine } from '../../engine/sim/transcript.js';
import type { Story } from '../../engine/story/format.js';

export type CommitRequest = {
  userId: string;
  storyId: string;
  expectedVersion: number | null;
  state: GameState;
  effects: Effect[];
  input?: { input_id: string; player_story_id: string; outputs: GameOutput[] };
  transcript?: { player_story_id: string; lines: TranscriptLine[] };
};

export type CommitResult =
  | { ok: true; version: number }
  | { ok: false; reason: 'conflict' }
  | { ok: false; reason: 'duplicate'; outputs: GameOutput[] };

export interface GameStorePort {
  loadState(userId: string, storyId: string, opts?: { refresh?: boolean }): Promise<{ state: GameState; version: number } | null>;
  commit(c: CommitRequest): Promise<CommitResult>;
  /** The outputs first sent for this input (each names its player_story_id), or null. */
  findProcessed(userId: string, inputId: string): Promise<GameOutput[] | null>;
  playerStoryOwner(playerStoryId: string): Promise<{ user_id: string; blueprint_story_id: string } | null>;
  playerStory(id: string): Promise<PlayerStory | null>;
  transcript(playerStoryId: string): Promise<TranscriptLine[]>;
  /** Merges timings known only once the reply was spoken (tts, total) into the turn's transcript line. */
  addTranscriptStages(playerStoryId: string, inputId: string, stages: Readonly<Record<string, number>>): Promise<boolean>;
}

export interface StoryStorePort {
  getStory(id: string): Promise<Story | null>;
}
