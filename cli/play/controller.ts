// One run being played: sends the player's inputs over the link, reads the game view over HTTP, and folds both into
// the model (model.ts) for whichever screen listens (plain printer, --json, Ink).
import { randomUUID } from 'node:crypto';
import type { TimerEffect } from '../../engine/client/effects.js';
import type { AudioFormat, UserInput } from '../../engine/protocol/user-input.js';
import type { PlayLanguage } from '../../engine/schema/enums.js';
import type { PlayerStory } from '../../engine/schema/player.js';
import type { GameView } from '../../engine/schema/views.js';
import type { Api, TurnResult } from '../lib/game-client.js';
import type { Link } from './link.js';
import { initialModel, type PlayEvent, type PlayModel, reducePlay, subScreenOf } from './model.js';
import { endRun, fetchView } from './session.js';

export type Listener = (event: PlayEvent, prev: PlayModel, next: PlayModel) => void;

export type AudioInput = { bytes: Uint8Array; format: AudioFormat; label: string; sample_rate?: number; channels?: 1 | 2; bits_per_sample?: 16 };

/** The most moments started in a row without the player saying anything (Monologues, skips) before giving up. */
const MAX_CHAINED_STARTS = 50;

export class GameController {
  #model: PlayModel;
  #listeners = new Set<Listener>();
  #timers = new Map<string, NodeJS.Timeout>();
  #turnNumbers = new Map<string, number>();
  #turns = 0;

  constructor(
    readonly api: Api,
    readonly link: Link,
    readonly run: PlayerStory,
    storyName: string,
    readonly opts: { language: PlayLanguage; liveTimers: boolean },
  ) {
    this.#model = initialModel(storyName, run);
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
    const prev = this.#model;
    const step = reducePlay(prev, event);
    this.#model = step.model;
    this.#armTimers(step.effects);
    for (const l of this.#listeners) l(event, prev, step.model);
  }

  #armTimers(effects: readonly TimerEffect[]): void {
    if (!this.opts.liveTimers) return;
    for (const e of effects) {
      clearTimeout(this.#timers.get(e.key));
      this.#timers.delete(e.key);
      if (e.type === 'start_timer') {
        this.#timers.set(e.key, setTimeout(() => {
          this.#timers.delete(e.key);
          this.dispatch({ type: 'timer', key: e.key });
        }, e.ms));
      }
    }
  }

  async refreshView(): Promise<GameView | null> {
    const v = await fetchView(this.api, this.run.id);
    if (v) this.dispatch({ type: 'view', view: v });
    return v;
  }

  /** 'Start next moment' on the end-of-moment screen: the next moment's start screen. */
  async nextMoment(): Promise<void> {
    if (!this.#model.nextView) await this.refreshView();
    this.dispatch({ type: 'next_moment' });
  }

  /** Sends one USER_INPUT (a moment start, words, or a clip) and folds the answer into the model. */
  async turn(input: Omit<UserInput, 'input_id' | 'player_story_id'> & { input_id?: string }, audio?: AudioInput): Promise<TurnResult> {
    if (input.is_starting_dialogue) {
      if (subScreenOf(this.#model) === 'end_of_moment') await this.nextMoment();
      else if (!this.#model.view) await this.refreshView();
    }
    const full: UserInput = {
      ...input,
      input_id: input.input_id ?? randomUUID(),
      player_story_id: this.run.id,
      ...(audio ? {
        audio_format: audio.format,
        ...(audio.sample_rate ? { sample_rate: audio.sample_rate } : {}),
        ...(audio.channels ? { channels: audio.channels } : {}),
        ...(audio.bits_per_sample ? { bits_per_sample: audio.bits_per_sample } : {}),
      } : {}),
    };
    this.#turnNumbers.set(full.input_id, ++this.#turns);
    if (!full.is_starting_dialogue) this.dispatch({ type: 'said', text: full.transcription ?? '', ...(audio ? { audio: audio.label } : {}) });
    const result = await this.link.send(full, audio?.bytes);
    const last = result.outputs.at(-1);
    // The view brings what outputs do not carry: the items, and the next moment once this one is complete.
    const needsView = last && last.loop_status === 'loopStatusOnGoing' && (last.complete_the_moment || last.is_awarded || result.forging.length > 0);
    const view = needsView ? await fetchView(this.api, this.run.id) : null;
    this.dispatch({ type: 'turn', result, view });
    return result;
  }

  start(): Promise<TurnResult> {
    return this.turn({ is_starting_dialogue: true });
  }

  say(text: string): Promise<TurnResult> {
    return this.turn({ is_starting_dialogue: false, transcription: text });
  }

  sayAudio(audio: AudioInput): Promise<TurnResult> {
    return this.turn({ is_starting_dialogue: false }, audio);
  }

  /**
   * Starts moments until one waits for the player or the run is over (what a player does by pressing Start and
   * Start next moment). Returns the first error, if any.
   */
  async startPending(): Promise<string | null> {
    for (let i = 0; i < MAX_CHAINED_STARTS && !this.over; i++) {
      const screen = subScreenOf(this.#model);
      if (screen !== 'start' && screen !== 'end_of_moment') return null;
      const r = await this.start();
      if (r.error) return r.error;
    }
    return null;
  }

  /** End Current Run (after the player confirmed). */
  async endRun(): Promise<void> {
    const row = await endRun(this.api, this.run.id);
    this.dispatch({ type: 'run_ended', rank: row.loop_rank });
  }

  /** The run's row, to notice an end the model did not see (a test plan's `end`). */
  async syncEnd(): Promise<void> {
    const row = await this.api.request<PlayerStory>('GET', `/api/player-stories/${this.run.id}`);
    if (row.loop_status === 'loopStatusLost' && !this.over) this.dispatch({ type: 'run_ended', rank: row.loop_rank });
  }

  dispose(): void {
    for (const t of this.#timers.values()) clearTimeout(t);
    this.#timers.clear();
    this.#listeners.clear();
  }
}
