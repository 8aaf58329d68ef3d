// The GameHost port: everything the game screen's controller needs from whatever runs the game. A player's game runs
// on the server (server-host.ts: the HTTP API and the realtime link); an author's test play runs in the page itself
// (local-host.ts: the engine's step, the scripted brain and in-memory state). The controller cannot tell them apart.
import type { TurnResult } from '../api/socket.js';
import type { UserInput } from '../../protocol/user-input.js';
import type { PlayerStory } from '../../schema/player.js';
import type { GameView } from '../../schema/views.js';

export interface GameHost {
  /**
   * Plays one USER_INPUT (a moment start, typed words, or a clip) and resolves with its answer. A refused turn
   * resolves too, with `error` (and `errorCode` for the protocol's known refusals); an input_id already answered
   * gets its first answer again and changes nothing.
   */
  send(input: UserInput, audio?: Uint8Array): Promise<TurnResult>;
  /** The game view of the run, or null once the run has no current moment (it ended) or is not the current one. */
  gameView(playerStoryId: string): Promise<GameView | null>;
  /** The run's row (its status and rank: a test plan's `end`, an end the model did not see). */
  playerStory(playerStoryId: string): Promise<PlayerStory>;
  /** End Current Run: the run is lost and its rank stored. */
  endRun(playerStoryId: string): Promise<PlayerStory>;
}
