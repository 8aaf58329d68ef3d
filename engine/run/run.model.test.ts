// Model-based test (fc.commands): random command sequences against the engine and a much simpler model of a run:
// run count, status, interactions and whether the current moment has started.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LOOP_STATUS } from '../schema/enums.js';
import { Harness } from './test-harness.js';
import { runCount } from './state.js';
import { testStory } from './test-story.js';

type Model = { runs: number; ongoing: boolean; interactions: number; max: number; started: boolean; lastInput: string | null };
type Real = { h: Harness };

const SELF = new Set(['Monologue', 'Epilogue', 'Dead End']);
const TALK = new Set(['Learn', 'Test', 'Crossroad', 'Teamwork']);

function sync(m: Model, r: Real): void {
  // Only what the model cannot know: whether the engine moved on (self-completing moments, skips, end of game).
  const run = r.h.state.run;
  m.ongoing = run?.loop_status === LOOP_STATUS.ongoing;
  m.started = r.h.moment?.is_started ?? false;
}

function check(m: Model, r: Real): void {
  const run = r.h.state.run;
  expect(runCount(r.h.state)).toBe(m.runs);
  if (!run) return;
  expect(run.loop_number).toBe(m.runs);
  expect(run.loop_current_number_of_interactions).toBe(m.interactions);
  expect(run.loop_status === LOOP_STATUS.ongoing).toBe(m.ongoing);
  expect(run.loop_current_number_of_interactions).toBeLessThanOrEqual(run.loop_max_number_of_interactions);
}

class CreateRun implements fc.Command<Model, Real> {
  check = (): boolean => true;
  run(m: Model, r: Real): void {
    r.h.create();
    m.runs += 1;
    m.interactions = 0;
    m.lastInput = null;
    sync(m, r);
    check(m, r);
  }
  toString = (): string => 'CreateRun';
}

class Start implements fc.Command<Model, Real> {
  check = (m: Readonly<Model>): boolean => m.runs > 0 && m.ongoing && !m.started;
  run(m: Model, r: Real): void {
    const type = r.h.momentType() ?? '';
    r.h.start();
    if (SELF.has(type)) sync(m, r);
    else m.started = true;
    check(m, r);
  }
  toString = (): string => 'Start';
}

class Say implements fc.Command<Model, Real> {
  constructor(readonly free: boolean) {}
  check = (m: Readonly<Model>): boolean => m.runs > 0 && m.ongoing && m.started;
  run(m: Model, r: Real): void {
    const res = r.h.say('hmm', { perfect: this.free });
    m.lastInput = res.outputs[0]?.input_id ?? null;
    if (!this.free) m.interactions += 1;
    if (m.interactions >= m.max) m.ongoing = false;
    check(m, r);
  }
  toString = (): string => `Say(${this.free ? 'free' : 'counted'})`;
}

class Complete implements fc.Command<Model, Real> {
  check = (m: Readonly<Model>): boolean => m.runs > 0 && m.ongoing && m.started;
  run(m: Model, r: Real): void {
    if (!TALK.has(r.h.momentType() ?? '')) return;
    r.h.say('yes', { outcome: 'complete' });
    m.interactions += 1;
    sync(m, r);
    if (m.interactions >= m.max && m.ongoing) throw new Error('the cap did not end the run');
    check(m, r);
  }
  toString = (): string => 'Complete';
}

class Replay implements fc.Command<Model, Real> {
  check = (m: Readonly<Model>): boolean => m.lastInput !== null;
  run(m: Model, r: Real): void {
    const before = r.h.state;
    const res = r.h.apply({ type: 'turn', input_id: m.lastInput ?? '', is_starting_dialogue: false, transcription: 'again', decision: { reply: 'x', emotion: 'normal', intensity: 1, outcome: 'continue' } });
    expect(res.ok).toBe(false);
    expect(r.h.state).toBe(before);
    check(m, r);
  }
  toString = (): string => 'Replay';
}

class EndRun implements fc.Command<Model, Real> {
  check = (m: Readonly<Model>): boolean => m.runs > 0 && m.ongoing;
  run(m: Model, r: Real): void {
    r.h.ok({ type: 'run.end' });
    m.ongoing = false;
    check(m, r);
    expect(r.h.run.loop_rank).toBe(7);
  }
  toString = (): string => 'EndRun';
}

describe('a whole run against a simplified model', () => {
  it('agrees with the model on every command sequence', () => {
    const max = 8;
    const story = { ...testStory, loop_max_number_of_interactions: max };
    const commands = [
      fc.constant(new CreateRun()),
      fc.constant(new Start()),
      fc.constant(new Start()),
      fc.boolean().map((free) => new Say(free)),
      fc.boolean().map((free) => new Say(free)),
      fc.constant(new Complete()),
      fc.constant(new Complete()),
      fc.constant(new Replay()),
      fc.constant(new EndRun()),
    ];
    fc.assert(fc.property(fc.commands(commands, { maxCommands: 80, size: 'max' }), fc.integer({ min: 0, max: 1e9 }), (cmds, seed) => {
      const model: Model = { runs: 0, ongoing: false, interactions: 0, max, started: false, lastInput: null };
      fc.modelRun(() => ({ model, real: { h: new Harness(story, seed) } }), cmds);
    }), { numRuns: 150 });
  });
});
