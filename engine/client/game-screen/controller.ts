// One run being played, for every client: sends the player's inputs to its game host (the server over the link and
// HTTP, or the local host in the page: ../host/), reads the game view from it, and folds both into the model
// (model.ts) for whichever screen listens (the CLI's printer or Ink, the web app's React screen). Its effects run
// here: timers on the injected clock, the moment re-fetch; audio and recording effects go to the screen's `onEffect`
// (a terminal player, or the browser's audio elements and recorder).
import type { Clock } from '../clock.js';
import { TimerHost } from '../clock.js';
import { SimulatedClock } from '../timers.js';
import { ApiError } from '../api/http.js';
import type { AudioChunk, TurnResult } from '../api/socket.js';
import type { GameHost } from '../host/game-host.js';
import type { AudioFormat, UserInput } from '../../protocol/user-input.js';
import type { PlayLanguage } from '../../schema/enums.js';
import type { PlayerStory } from '../../schema/player.js';
import type { GameView } from '../../schema/views.js';
import { initialStep, type PlayEffect, type PlayEvent, type PlayModel, reducePlay, subScreenOf } from './model.js';
import { parseUnseenTurn, presentationPending, type ResumeStore, type UnseenTurn } from './resume.js';

export type Listener = (event: PlayEvent, prev: PlayModel, next: PlayModel) => void;

export type AudioInput = { bytes: Uint8Array; format: AudioFormat; label: string; sample_rate?: number; channels?: 1 | 2; bits_per_sample?: 16 };

/** The most moments started in a row without the player saying anything (Monologues, skips) before giving up. */
const MAX_CHAINED_STARTS = 50;

export type ControllerOptions = {
  language: PlayLanguage;
  /** Real time (a screen a person watches), or 'instant': every timer fires at once (plain output, scripts, tests). */
  time: { mode: 'live'; clock: Clock } | { mode: 'instant' };
  newId: () => string;
  /** Audio, recording and sound effects for the screen to carry out (timers and re-fetches are handled here). */
  onEffect?: (effect: PlayEffect) => void;
  /** A view read failed (the screen may show it); the game goes on with what it has. */
  onError?: (error: unknown) => void;
  /** Keeps the last turn until the player has seen all of it, so that a reload shows the rest (resume.ts). */
  resume?: ResumeStore;
};

/** An API failure with what was being done in front ('Error ending run. Please try again.: ...'), status kept. */
async function doing<T>(what: string, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (e) {
    if (e instanceof ApiError && e.status !== 0) throw new ApiError(e.status, `${what}: ${e.message}`, e.code);
    throw e;
  }
}

export class GameController {
  #model: PlayModel;
  #listeners = new Set<Listener>();
  readonly #timers: TimerHost;
  readonly #instant: SimulatedClock | null;
  #draining = false;
  #turnNumbers = new Map<string, number>();
  #turns = 0;
  /** Turns sent and not yet answered: a view read meanwhile may predate them, so it is dropped. */
  #inFlight = 0;
  #viewEpoch = 0;
  #disposed = false;
  /** A turn is kept in the resume store (cleared once nothing of it is left to see). */
  #unseenKept = false;

  constructor(
    readonly host: GameHost,
    readonly run: PlayerStory,
    storyName: string,
    readonly opts: ControllerOptions,
  ) {
    this.#instant = opts.time.mode === 'instant' ? new SimulatedClock() : null;
    this.#timers = new TimerHost(opts.time.mode === 'live' ? opts.time.clock : (this.#instant as SimulatedClock), (key) => this.dispatch({ type: 'timer', key }));
    const first = initialStep(storyName, run);
    this.#model = first.model;
    this.#run(first.effects);
  }

  get model(): PlayModel {
    return this.#model;
  }

  get over(): boolean {
    const s = subScreenOf(this.#model);
    return s === 'game_won' || s === 'game_lost';
  }

  turnOf(inputId: string): number {
    return this.#turnNumbers.get(inputId) ?? 0;
  }

  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  dispatch(event: PlayEvent): void {
    if (this.#disposed) return;
    const prev = this.#model;
    const step = reducePlay(prev, event);
    this.#model = step.model;
    for (const l of this.#listeners) l(event, prev, step.model);
    this.#run(step.effects);
    if (this.#unseenKept && !presentationPending(this.#model)) this.forgetUnseen();
  }

  /**
   * After a reload: sends the kept turn again (same input_id, answered by the server as a replay) over the view of the
   * moment it was sent in, so its award and MOMENT COMPLETE show. False when nothing was kept; the screen then reads
   * the view as usual. A replay refused (an input that never reached the server) shows no error: nothing was lost.
   */
  resumeUnseen(): boolean {
    const kept = parseUnseenTurn(this.opts.resume?.load() ?? null, this.run.id);
    if (!kept) {
      this.forgetUnseen();
      return false;
    }
    if (kept.view) this.dispatch({ type: 'view', view: kept.view, started: !kept.input.is_starting_dialogue });
    // The input as sent, less its audio's parameters: the audio itself was not kept.
    const { input_id, is_starting_dialogue, transcription, language, selected_character_ids } = kept.input;
    void this.turn({
      input_id, is_starting_dialogue,
      ...(transcription !== undefined ? { transcription } : {}), ...(language ? { language } : {}), ...(selected_character_ids ? { selected_character_ids } : {}),
    })
      .then((r) => { if (r.error) this.dispatch({ type: 'dismiss_error' }); }, (err: unknown) => this.opts.onError?.(err));
    return true;
  }

  /** Drops the kept turn (everything of it was seen, or the game is closed). */
  forgetUnseen(): void {
    this.#unseenKept = false;
    this.opts.resume?.save(null);
  }

  #keepUnseen(input: UserInput): void {
    const store = this.opts.resume;
    if (!store) return;
    const kept: UnseenTurn = { run_id: this.run.id, input, view: this.#model.view };
    store.save(JSON.stringify(kept));
    this.#unseenKept = true;
  }

  #run(effects: readonly PlayEffect[]): void {
    this.#timers.run(effects);
    for (const e of effects) {
      if (e.type === 'start_timer' || e.type === 'cancel_timer') continue;
      if (e.type === 'fetch_moment') {
        // Instant time has no "500 ms later": turns that need the view read it at once (see turn()).
        if (!this.#instant) void this.refreshView().catch((err: unknown) => this.opts.onError?.(err));
        continue;
      }
      this.opts.onEffect?.(e);
    }
    this.#drainInstant();
  }

  /** Instant time: fires every timer now, those they arm included. */
  #drainInstant(): void {
    if (!this.#instant || this.#draining) return;
    this.#draining = true;
    try {
      this.#instant.runAll();
    } finally {
      this.#draining = false;
    }
  }

  /** Reads the game view and folds it in; a read that a turn overtook is dropped (the turn brings newer state). */
  async refreshView(): Promise<GameView | null> {
    const epoch = ++this.#viewEpoch;
    const turnsBefore = this.#turns;
    const v = await doing('Cannot read the game view', this.host.gameView(this.run.id));
    if (v && epoch === this.#viewEpoch && this.#inFlight === 0 && turnsBefore === this.#turns) this.dispatch({ type: 'view', view: v });
    return v;
  }

  /** 'Start next moment' on the end-of-moment screen: the next moment's start screen. */
  async nextMoment(): Promise<void> {
    if (!this.#model.nextView) await this.refreshView();
    this.dispatch({ type: 'next_moment' });
  }

  /** An AUDIO_ANSWER for the voice loop (the screen keeps the bytes under the id it gives). */
  audioReceived(chunk: AudioChunk, id: string): void {
    this.dispatch({ type: 'audio_received', audio: { id, playerMomentId: chunk.header.player_moment_id } });
  }

  /** Sends one USER_INPUT (a moment start, words, or a clip) and folds the answer into the model. */
  async turn(input: Omit<UserInput, 'input_id' | 'player_story_id'> & { input_id?: string }, audio?: AudioInput): Promise<TurnResult> {
    if (input.is_starting_dialogue) {
      if (subScreenOf(this.#model) === 'end_of_moment') await this.nextMoment();
      else if (!this.#model.view) await this.refreshView();
    }
    const full: UserInput = {
      ...input,
      input_id: input.input_id ?? this.opts.newId(),
      player_story_id: this.run.id,
      ...(audio ? {
        audio_format: audio.format,
        ...(audio.sample_rate ? { sample_rate: audio.sample_rate } : {}),
        ...(audio.channels ? { channels: audio.channels } : {}),
        ...(audio.bits_per_sample ? { bits_per_sample: audio.bits_per_sample } : {}),
      } : {}),
    };
    this.#turnNumbers.set(full.input_id, ++this.#turns);
    this.#inFlight++;
    let result: TurnResult;
    let view: GameView | null;
    try {
      this.#keepUnseen(full);
      this.dispatch({ type: 'sent' });
      if (!full.is_starting_dialogue) this.dispatch({ type: 'said', text: full.transcription ?? '', ...(audio ? { audio: audio.label } : {}) });
      result = await this.host.send(full, audio?.bytes);
      const last = result.outputs.at(-1);
      // The view brings what outputs do not carry: the items, and the next moment once this one is complete.
      const needsView = last && last.loop_status === 'loopStatusOnGoing' && (last.complete_the_moment || last.is_awarded || result.forging.length > 0);
      view = needsView ? await doing('Cannot read the game view', this.host.gameView(this.run.id)) : null;
    } finally {
      this.#inFlight--;
    }
    this.dispatch({ type: 'turn', result, view });
    return result;
  }

  start(): Promise<TurnResult> {
    return this.turn({ is_starting_dialogue: true });
  }

  say(text: string): Promise<TurnResult> {
    return this.turn({ is_starting_dialogue: false, transcription: text });
  }

  sayAudio(audio: AudioInput, transcription?: string): Promise<TurnResult> {
    return this.turn({ is_starting_dialogue: false, ...(transcription ? { transcription } : {}) }, audio);
  }

  /**
   * Starts moments until one waits for the player or the run is over (what a player does by pressing Start and
   * Start next moment). Returns the first error, if any.
   */
  async startPending(): Promise<string | null> {
    for (let i = 0; i < MAX_CHAINED_STARTS && !this.over; i++) {
      // A complete moment still speaking its last line (or showing an award) is let finish first.
      if (this.#model.momentComplete && subScreenOf(this.#model) === 'in_game') await this.until((m) => subScreenOf(m) !== 'in_game');
      const screen = subScreenOf(this.#model);
      if (screen !== 'start' && screen !== 'end_of_moment') return null;
      const r = await this.start();
      if (r.error) return r.error;
    }
    return null;
  }

  /** Resolves once the model satisfies `test` (at once if it already does; never after dispose). */
  until(test: (m: PlayModel) => boolean): Promise<void> {
    if (test(this.#model)) return Promise.resolve();
    return new Promise((resolve) => {
      const off = this.subscribe((_e, _p, next) => {
        if (!test(next)) return;
        off();
        resolve();
      });
    });
  }

  /** End Current Run (after the player confirmed). */
  async endRun(): Promise<void> {
    const row = await doing('Error ending run. Please try again.', this.host.endRun(this.run.id));
    this.dispatch({ type: 'run_ended', rank: row.loop_rank });
  }

  /** The run's row, to notice an end the model did not see (a test plan's `end`). */
  async syncEnd(): Promise<void> {
    const row = await doing('Cannot read the run', this.host.playerStory(this.run.id));
    if (row.loop_status === 'loopStatusLost' && !this.over) this.dispatch({ type: 'run_ended', rank: row.loop_rank });
  }

  dispose(): void {
    this.#disposed = true;
    this.#timers.clear();
    this.#listeners.clear();
  }
}
