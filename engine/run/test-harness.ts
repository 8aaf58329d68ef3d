// Test driver for the engine: builds decisions by hand and folds events through `step`, keeping the log.
import { Decision, type DecisionInput } from '../brain/decision.js';
import type { Story } from '../story/format.js';
import type { GameEvent, GameEventInput } from './events.js';
import { GameEvent as GameEventSchema } from './events.js';
import { initialState, currentMoment, currentRun, type GameState } from './state.js';
import { step, type StepResult, type StepSuccess } from './step.js';

export function dec(partial: Partial<DecisionInput> = {}): Decision {
  return Decision.parse({ reply: 'ok', emotion: 'normal', intensity: 1, outcome: 'continue', ...partial });
}

export class Harness {
  state: GameState;
  now = Date.UTC(2026, 0, 1);
  log: GameEvent[] = [];
  nowLog: number[] = [];
  last: StepResult | undefined;
  #n = 0;

  constructor(readonly story: Story, seed = 1, userId = 'user-1') {
    this.state = initialState(userId, story.id, seed);
  }

  apply(input: GameEventInput): StepResult {
    const ev = GameEventSchema.parse(input);
    const r = step(this.state, ev, { now: this.now, story: this.story });
    this.last = r;
    if (r.ok) {
      this.state = r.state;
      this.log.push(ev);
      this.nowLog.push(this.now);
    }
    this.now += 1000;
    return r;
  }

  ok(input: GameEventInput): StepSuccess {
    const r = this.apply(input);
    if (!r.ok) throw new Error(`step failed: ${r.error.code} ${r.error.message}`);
    return r;
  }

  nextId(): string {
    this.#n++;
    return `10000000-0000-4000-8000-${this.#n.toString().padStart(12, '0')}`;
  }

  create(extra: Partial<Extract<GameEventInput, { type: 'run.create' }>> = {}): StepSuccess {
    return this.ok({ type: 'run.create', language: 'english', ...extra });
  }

  start(partial: Partial<DecisionInput> = {}): StepSuccess {
    return this.ok({ type: 'turn', input_id: this.nextId(), is_starting_dialogue: true, transcription: '', decision: dec(partial) });
  }

  say(transcription: string, partial: Partial<DecisionInput> = {}, extra: { selected_character_ids?: string[] } = {}): StepSuccess {
    return this.ok({ type: 'turn', input_id: this.nextId(), is_starting_dialogue: false, transcription, decision: dec(partial), ...extra });
  }

  get run() {
    const r = currentRun(this.state);
    if (!r) throw new Error('no run');
    return r;
  }

  get moment() {
    return currentMoment(this.state);
  }

  momentType(): string | undefined {
    const m = this.moment;
    return m ? this.story.moments.find((x) => x.id === m.blueprint_moment_id)?.type : undefined;
  }

  character(name: string) {
    const c = this.state.characters.find((x) => x.name === name);
    if (!c) throw new Error(`no character ${name}`);
    return c;
  }
}
