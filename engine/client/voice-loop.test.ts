import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type BattlePhase } from '../schema/enums.js';
import { Simulator } from './timers.js';
import {
  type DialogueAudio, type VoiceEffect, type VoiceEvent, type VoiceLoop, type VoiceState, READY_TIMER,
  RECORDING_INITIAL_DELAY_MS, VOICE_LABELS, canRecordNow, initVoiceLoop, transitionVoiceLoop, voiceButton, voiceState,
} from './voice-loop.js';

const audio = (id: string): DialogueAudio => ({ id, playerMomentId: 'pm-1' });

/** A loop on a simulated clock, started as the runner starts it. */
function driver(): Simulator<VoiceLoop, VoiceEvent, VoiceEffect> {
  const init = initVoiceLoop();
  return new Simulator<VoiceLoop, VoiceEvent, VoiceEffect>(transitionVoiceLoop, init.state, init.effects);
}
type Driver = ReturnType<typeof driver>;
const voice = (d: Driver): VoiceState => voiceState(d.state);

describe('voice loop', () => {
  it('labels the four states as the spec says', () => {
    expect(VOICE_LABELS).toEqual({ IDLE: 'REC', PLAYER_SPEAKING: 'STOP', PROCESSING: null, GAME_SPEAKING: 'SKIP' });
  });

  it('starts IDLE, tells the native wrapper, and lets recording start only after the 100 ms initial delay', () => {
    const d = driver();
    expect(RECORDING_INITIAL_DELAY_MS).toBe(100);
    expect(d.effects).toContainEqual({ type: 'notify_native', state: 'IDLE' });
    expect(voiceButton(d.state)).toEqual({ state: 'IDLE', label: 'REC', enabled: false });
    d.send({ type: 'click' });
    expect(d.refused).toBe('voice/not_ready');
    expect(voice(d)).toBe('IDLE');
    d.wait(99);
    expect(d.state.ready).toBe(false);
    d.wait(1);
    expect(voiceButton(d.state).enabled).toBe(true);
    d.send({ type: 'click' });
    expect(voice(d)).toBe('PLAYER_SPEAKING');
    expect(voiceButton(d.state).label).toBe('STOP');
    expect(d.effects).toEqual([{ type: 'start_recording' }, { type: 'play_sound', sound: 'record', loop: false }]);
  });

  it('click in PLAYER_SPEAKING stops recording and returns to IDLE; the input then shows PROCESSING with the thinking loop', () => {
    const d = driver().wait(100).send({ type: 'click' });
    d.send({ type: 'click' });
    expect(d.effects).toContainEqual({ type: 'stop_recording' });
    expect(voice(d)).toBe('IDLE');
    d.send({ type: 'input_sent' });
    expect(voiceButton(d.state)).toEqual({ state: 'PROCESSING', label: null, enabled: false });
    expect(d.effects).toEqual([
      { type: 'play_sound', sound: 'thinking', loop: true },
      { type: 'notify_native', state: 'PROCESSING' },
    ]);
    d.send({ type: 'click' });
    expect(d.refused).toBe('voice/busy');
  });

  it('recording stopped by the recorder itself (silence, native) returns to IDLE', () => {
    const d = driver().wait(100).send({ type: 'click' }).send({ type: 'recording_stopped' });
    expect(voice(d)).toBe('IDLE');
    expect(d.effects).toContainEqual({ type: 'notify_native', state: 'IDLE' });
  });

  it('audio makes GAME_SPEAKING (SKIP); lines play in order; recording comes back 100 ms after the last one', () => {
    const d = driver().wait(100).send({ type: 'input_sent' });
    d.send({ type: 'audio_received', audio: audio('a1') });
    expect(d.effects).toContainEqual({ type: 'play_audio', audio: audio('a1') });
    expect(d.effects).toContainEqual({ type: 'stop_sound', sound: 'thinking' });
    expect(d.effects).toContainEqual({ type: 'notify_native', state: 'GAME_SPEAKING' });
    expect(voiceButton(d.state)).toEqual({ state: 'GAME_SPEAKING', label: 'SKIP', enabled: true });
    d.send({ type: 'audio_received', audio: audio('a2') });
    expect(d.state.queue).toEqual([audio('a2')]);
    d.send({ type: 'output_received', battlePhase: '' });
    expect(voice(d)).toBe('GAME_SPEAKING');
    d.send({ type: 'audio_ended', id: 'a1' });
    expect(d.effects).toEqual([{ type: 'play_audio', audio: audio('a2') }]);
    d.send({ type: 'audio_ended', id: 'a2' });
    expect(voice(d)).toBe('IDLE');
    expect(voiceButton(d.state).enabled).toBe(false);
    d.wait(100);
    expect(voiceButton(d.state).enabled).toBe(true);
  });

  it('click in GAME_SPEAKING skips: stops the current audio and clears the queue', () => {
    const d = driver().wait(100);
    d.send({ type: 'audio_received', audio: audio('a1') }).send({ type: 'audio_received', audio: audio('a2') });
    d.send({ type: 'click' });
    expect(d.effects.slice(0, 2)).toEqual([{ type: 'stop_audio' }, { type: 'discard_audio', ids: ['a2'] }]);
    expect(d.state.playing).toBeNull();
    expect(d.state.queue).toEqual([]);
    expect(voice(d)).toBe('IDLE');
    // A second click of a double-click lands inside the delay and does not start a recording.
    d.send({ type: 'click' });
    expect(d.refused).toBe('voice/not_ready');
  });

  it('player speech during game speech skips only the current audio (barge-in)', () => {
    const d = driver().wait(100);
    d.send({ type: 'audio_received', audio: audio('a1') }).send({ type: 'audio_received', audio: audio('a2') });
    d.send({ type: 'player_speech' });
    expect(d.effects.slice(0, 2)).toEqual([{ type: 'stop_audio' }, { type: 'play_audio', audio: audio('a2') }]);
    expect(d.state.playing).toEqual(audio('a2'));
    d.send({ type: 'player_speech' });
    expect(d.state.playing).toBeNull();
    // A late 'ended' of the stopped line changes nothing.
    d.send({ type: 'audio_ended', id: 'a1' });
    expect(d.effects).toEqual([]);
  });

  it('discards incoming audio while the player is recording', () => {
    const d = driver().wait(100).send({ type: 'click' });
    d.send({ type: 'audio_received', audio: audio('late') });
    expect(d.effects).toEqual([{ type: 'discard_audio', ids: ['late'] }]);
    expect(voice(d)).toBe('PLAYER_SPEAKING');
    expect(d.state.playing).toBeNull();
  });

  it('blocks recording during ai_attack_selection, showing PROCESSING', () => {
    const d = driver().wait(100).send({ type: 'input_sent' });
    d.send({ type: 'output_received', battlePhase: 'ai_attack_selection' });
    expect(canRecordNow(d.state)).toBe(false);
    expect(voice(d)).toBe('PROCESSING');
    d.send({ type: 'input_sent' }).send({ type: 'output_received', battlePhase: 'player_defense_input' });
    expect(voice(d)).toBe('IDLE');
  });

  it('ignores a stale ready timer after recording was blocked again', () => {
    const d = driver();
    d.send({ type: 'input_sent' });
    const fired = transitionVoiceLoop(d.state, { type: 'timer', key: READY_TIMER });
    expect(fired.state.ready).toBe(false);
  });

  it('reset stops recording and audio and drops the queue', () => {
    const d = driver().wait(100).send({ type: 'audio_received', audio: audio('a') }).send({ type: 'audio_received', audio: audio('b') });
    d.send({ type: 'reset' });
    expect(d.effects).toContainEqual({ type: 'stop_audio' });
    expect(d.effects).toContainEqual({ type: 'discard_audio', ids: ['b'] });
    expect(voice(d)).toBe('IDLE');
  });
});

// ---- Model-based: a simplified model of the spec's rules, checked against the machine after every command.

interface Model {
  recording: boolean;
  processing: boolean;
  playing: string | null;
  queue: string[];
  phase: BattlePhase | '';
  /** ms since recording last became possible; null while blocked. */
  sinceEnabled: number | null;
  nextAudio: number;
}

interface Real {
  d: Driver;
}

const modelCanRecord = (m: Model): boolean => !m.processing && m.playing === null && m.queue.length === 0 && m.phase !== 'ai_attack_selection';
const modelState = (m: Model): VoiceState => (m.recording ? 'PLAYER_SPEAKING' : modelCanRecord(m) ? 'IDLE' : m.playing ? 'GAME_SPEAKING' : 'PROCESSING');

function sync(m: Model, before: boolean): void {
  const after = modelCanRecord(m);
  if (after && !before) m.sinceEnabled = 0;
  if (!after) m.sinceEnabled = null;
}

function check(m: Model, r: Real): void {
  expect(voiceState(r.d.state)).toBe(modelState(m));
  expect(r.d.state.recording).toBe(m.recording);
  expect(r.d.state.playing?.id ?? null).toBe(m.playing);
  expect(r.d.state.queue.map((a) => a.id)).toEqual(m.queue);
  expect(r.d.state.ready).toBe(m.sinceEnabled !== null && m.sinceEnabled >= RECORDING_INITIAL_DELAY_MS);
  // Invariants: audio never plays while recording, and the thinking loop plays exactly in PROCESSING.
  expect(m.recording && m.playing !== null).toBe(false);
}

const step = (name: string, apply: (m: Model) => void, event: (m: Model) => VoiceEvent): fc.Command<Model, Real> => ({
  check: () => true,
  run(m, r) {
    const before = modelCanRecord(m);
    const ev = event(m);
    apply(m);
    sync(m, before);
    r.d.send(ev);
    check(m, r);
  },
  toString: () => name,
});

const clickCmd = step('click', (m) => {
  const s = modelState(m);
  if (s === 'IDLE' && m.sinceEnabled !== null && m.sinceEnabled >= RECORDING_INITIAL_DELAY_MS) m.recording = true;
  else if (s === 'PLAYER_SPEAKING') m.recording = false;
  else if (s === 'GAME_SPEAKING') { m.playing = null; m.queue = []; }
}, () => ({ type: 'click' }));
const audioCmd = fc.constant(null).map(() => step('audio', (m) => {
  const id = `a${m.nextAudio}`;
  m.nextAudio += 1;
  if (m.recording) return;
  if (m.playing === null) m.playing = id; else m.queue.push(id);
}, (m) => ({ type: 'audio_received', audio: audio(`a${m.nextAudio}`) })));
const endCmd = step('audio_ended', (m) => { m.playing = m.queue.shift() ?? null; }, (m) => ({ type: 'audio_ended', id: m.playing ?? 'none' }));
const speechCmd = step('player_speech', (m) => { if (modelState(m) === 'GAME_SPEAKING') m.playing = m.queue.shift() ?? null; }, () => ({ type: 'player_speech' }));
const sentCmd = step('input_sent', (m) => { m.processing = true; }, () => ({ type: 'input_sent' }));
const stoppedCmd = step('recording_stopped', (m) => { m.recording = false; }, () => ({ type: 'recording_stopped' }));
const outputCmd = (phase: BattlePhase | ''): fc.Command<Model, Real> =>
  step(`output(${phase})`, (m) => { m.processing = false; m.phase = phase; }, () => ({ type: 'output_received', battlePhase: phase }));
const waitCmd = (ms: number): fc.Command<Model, Real> => ({
  check: () => true,
  run(m, r) {
    if (m.sinceEnabled !== null) m.sinceEnabled += ms;
    r.d.wait(ms);
    check(m, r);
  },
  toString: () => `wait(${ms})`,
});

describe('voice loop against a model', () => {
  it('agrees with the spec model after every command', () => {
    const commands = [
      fc.constant(clickCmd), audioCmd, fc.constant(endCmd), fc.constant(speechCmd), fc.constant(sentCmd),
      fc.constant(stoppedCmd),
      fc.constantFrom<BattlePhase | ''>('', 'initial', 'player_attack_input', 'ai_attack_selection', 'player_defense_input').map(outputCmd),
      fc.integer({ min: 1, max: 150 }).map(waitCmd),
    ];
    fc.assert(fc.property(fc.commands(commands, { size: '+1' }), (cmds) => {
      const model: Model = { recording: false, processing: false, playing: null, queue: [], phase: '', sinceEnabled: 0, nextAudio: 0 };
      fc.modelRun(() => ({ model, real: { d: driver() } }), cmds);
    }), { numRuns: 300 });
  });
});

describe('voice loop: recording started outside a click (native RECORDING_STARTED, a terminal recorder)', () => {
  it('skips what plays, clears the queue, and discards audio that arrives while recording', () => {
    let t = transitionVoiceLoop(initVoiceLoop().state, { type: 'audio_received', audio: { id: 'a1', playerMomentId: 'm' } });
    t = transitionVoiceLoop(t.state, { type: 'audio_received', audio: { id: 'a2', playerMomentId: 'm' } });
    const rec = transitionVoiceLoop(t.state, { type: 'recording_started' });
    expect(voiceState(rec.state)).toBe('PLAYER_SPEAKING');
    expect(rec.effects).toEqual(expect.arrayContaining([{ type: 'stop_audio' }, { type: 'discard_audio', ids: ['a2'] }]));
    const late = transitionVoiceLoop(rec.state, { type: 'audio_received', audio: { id: 'a3', playerMomentId: 'm' } });
    expect(late.effects).toEqual([{ type: 'discard_audio', ids: ['a3'] }]);
    expect(voiceState(transitionVoiceLoop(late.state, { type: 'recording_stopped' }).state)).toBe('IDLE');
  });
});
