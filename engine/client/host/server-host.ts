// The GameHost of a player's game: turns over the realtime link (retries, replays after a reconnect), reads and the
// run's end over the HTTP API. Refusals are the API's (ApiError with the server's status and code).
import type { Api } from '../api/http.js';
import type { Link } from '../api/link.js';
import type { TurnResult } from '../api/socket.js';
import type { UserInput } from '../../protocol/user-input.js';
import type { PlayerStory } from '../../schema/player.js';
import type { GameView } from '../../schema/views.js';
import type { GameHost } from './game-host.js';

export class ServerHost implements GameHost {
  constructor(readonly api: Api, readonly link: Link) {}

  send(input: UserInput, audio?: Uint8Array): Promise<TurnResult> {
    return this.link.send(input, audio);
  }

  gameView(playerStoryId: string): Promise<GameView | null> {
    return this.api.gameView(playerStoryId);
  }

  playerStory(playerStoryId: string): Promise<PlayerStory> {
    return this.api.playerStory(playerStoryId);
  }

  endRun(playerStoryId: string): Promise<PlayerStory> {
    return this.api.endRun(playerStoryId);
  }
}
