// The GameHost of an author's test play: the game runs in the page (or in Node), with no server. Each input goes
// through what the server's turn pipeline does without its I/O: the replay check, the run check, the scripted brain's
// decision and the engine's step, on a state kept in memory. Time comes from the injected clock and randomness from
// the seed in the state, so the same start and the same inputs play the same run. Left out: speech (no recogniser,
// no voice: typed lines only, no AUDIO_ANSWER), the LLM brain, the store, and the player's other runs and tickets.
import { ApiError } from '../api/http.js';
import { failedTurn, type TurnResult } from '../api/socket.js';
import { TURN_ERRORS } from '../../protocol/turn-errors.js';
import { UserInput } from '../../protocol/user-input.js';
import type { GameEvent } from '../../run/events.js';
import { gameView } from '../../run/views.js';
import { step } from '../../run/step.js';
import type { GameState } from '../../run/state.js';
import type { GameOutput, EquipmentForging } from '../../schema/game-output.js';
import type { CardModifierNotification } from '../../schema/notification.js';
import type { PlayerStory } from '../../schema/player.js';
import type { GameView, ImageDetails } from '../../schema/views.js';
import { scriptedTurn } from '../../sim/play-turn.js';
import type { Story } from '../../story/format.js';
import type { GameHost } from './game-host.js';
import { checkStart, type LocalStart, type StartError } from './local-start.js';
import { startState } from './start-state.js';

/** What the local host cannot do: it has no speech recogniser. */
export const LOCAL_AUDIO_REFUSED = 'The local game host plays typed lines only: send a transcription.';

export type LocalHostOptions = {
  /** Milliseconds since the epoch for each step: the page's clock, or a simulated one in tests and replays. */
  now: () => number;
  /** A media path of the story (as its file names it) as a URL the screen can load; the path as it is by default. */
  mediaUrl?: (path: string) => string;
};

/** One event applied, as a transcript keeps it: the start state plus these replay the run (engine/run/step). */
export type LocalEvent = { event: GameEvent; now: number; outputs: GameOutput[] };

export type LocalStartResult = { ok: true; host: LocalHost; run: PlayerStory } | { ok: false; errors: StartError[] };

export class LocalHost implements GameHost {
  #state: GameState;
  /** Answers by input_id: a resend (the controller's resume after a reload) gets its first answer again. */
  readonly #answers = new Map<string, TurnResult>();
  readonly #events: LocalEvent[] = [];

  private constructor(
    readonly story: Story,
    readonly start: LocalStart,
    /** The state the run opened on (its first moment entered): with `events`, everything needed to replay it. */
    readonly initial: GameState,
    readonly opts: LocalHostOptions,
  ) {
    this.#state = initial;
  }

  /** Opens a test run where and as the author says (see local-start.ts); a bad start is refused with every error. */
  static start(story: Story, start: unknown, opts: LocalHostOptions): LocalStartResult {
    const checked = checkStart(story, start);
    if (!checked.ok) return checked;
    const opened = startState(story, checked.start, opts.now());
    const host = new LocalHost(story, checked.start, opened.state, opts);
    return { ok: true, host, run: opened.run };
  }

  /** The state now (the studio's inspector; saving it as JSON and loading it back plays on identically). */
  get state(): GameState {
    return this.#state;
  }

  get events(): readonly LocalEvent[] {
    return this.#events;
  }

  send(input: UserInput, audio?: Uint8Array): Promise<TurnResult> {
    return Promise.resolve(this.#turn(input, audio));
  }

  #turn(raw: UserInput, audio?: Uint8Array): TurnResult {
    const parsed = UserInput.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return failedTurn(String(raw.input_id), `Invalid USER_INPUT: ${issue ? `${issue.path.join('.')}: ${issue.message}` : 'refused'}`);
    }
    const input = parsed.data;
    const answered = this.#answers.get(input.input_id);
    if (answered) {
      if (answered.outputs.some((o) => o.player_story_id !== input.player_story_id)) return failedTurn(input.input_id, TURN_ERRORS['turn/input_reused']);
      return answered;
    }
    const run = this.#state.run;
    if (!run || run.id !== input.player_story_id || run.loop_status !== 'loopStatusOnGoing') return failedTurn(input.input_id, TURN_ERRORS['run/finished']);
    let transcription: string;
    if (input.transcription !== undefined || input.is_starting_dialogue) transcription = input.transcription ?? '';
    else return failedTurn(input.input_id, audio ? LOCAL_AUDIO_REFUSED : TURN_ERRORS['turn/no_input']);

    const now = this.opts.now();
    const { event, result } = scriptedTurn(this.#state, this.story, {
      input_id: input.input_id, transcription, is_starting_dialogue: input.is_starting_dialogue,
      ...(input.selected_character_ids ? { selected_character_ids: input.selected_character_ids } : {}),
    }, now);
    if (!result.ok) return failedTurn(input.input_id, result.error.message);
    this.#state = result.state;
    this.#events.push({ event, now, outputs: result.outputs });
    const forging: EquipmentForging[] = [];
    const modifiers: CardModifierNotification[] = [];
    for (const e of result.effects) {
      if (e.type === 'send_equipment_forging') forging.push(e.payload);
      else if (e.type === 'send_card_modifiers') modifiers.push(e.payload);
    }
    const answer: TurnResult = { input_id: input.input_id, outputs: result.outputs, forging, modifiers, error: null, errorCode: null, firstOutputMs: 0, lastOutputMs: 0 };
    this.#answers.set(input.input_id, answer);
    return answer;
  }

  gameView(playerStoryId: string): Promise<GameView | null> {
    const v = this.#state.run?.id === playerStoryId ? gameView(this.#state, this.story) : null;
    if (!v) return Promise.resolve(null);
    const url = this.opts.mediaUrl ?? ((path: string) => path);
    const details = (d: ImageDetails[]) => d.map((x) => ({ ...x, media_url: url(x.media_url) }));
    return Promise.resolve({
      ...v, place_image_details: details(v.place_image_details), moment_image_details: details(v.moment_image_details),
      character_image_details: details(v.character_image_details),
      card_images: Object.fromEntries(Object.entries(v.card_images).map(([id, path]) => [id, url(path)])),
    });
  }

  playerStory(playerStoryId: string): Promise<PlayerStory> {
    const run = this.#state.run;
    if (run?.id !== playerStoryId) return Promise.reject(new ApiError(404, 'Player story not found.', 'not_found'));
    return Promise.resolve(run);
  }

  endRun(playerStoryId: string): Promise<PlayerStory> {
    const run = this.#state.run;
    if (run?.id !== playerStoryId) return Promise.reject(new ApiError(404, 'Player story not found.', 'not_found'));
    const ended = this.#apply({ type: 'run.end' });
    if (!ended.ok) return Promise.reject(new ApiError(409, ended.message, ended.code));
    return Promise.resolve(ended.run);
  }

  /**
   * Play again: a new run as a player's next one (the run number grows, completions stay), keeping only what the
   * start's persist options keep (story-maker mode). The unfinished run, if any, ends as lost.
   */
  newRun(): PlayerStory {
    const made = this.#apply({
      type: 'run.create', language: this.start.language, reset_progress: false,
      story_maker: { persist_items: this.start.persist.items, persist_characters: this.start.persist.characters },
      ...(this.start.max_interactions !== undefined ? { max_interactions: this.start.max_interactions } : {}),
    });
    if (!made.ok) throw new Error(`local host: a new run was refused: ${made.message}`);
    return made.run;
  }

  #apply(event: GameEvent): { ok: true; run: PlayerStory } | { ok: false; code: string; message: string } {
    const now = this.opts.now();
    const r = step(this.#state, event, { now, story: this.story });
    if (!r.ok) return { ok: false, code: r.error.code, message: r.error.message };
    this.#state = r.state;
    this.#events.push({ event, now, outputs: r.outputs });
    if (!r.run) throw new Error(`local host: ${event.type} left no run`);
    return { ok: true, run: r.run };
  }
}
