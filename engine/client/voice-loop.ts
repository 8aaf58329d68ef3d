// The voice loop (game spec §4 "Voice loop"): the record button's state, which the CLI and the web app share.
// The button state is derived from the facts below; the machine only stores facts and emits what changes.
import { type BattlePhase } from '../schema/enums.js';
import {
  type TimerEffect, type TimerFired, type Transition, cancelTimer, refuse, startTimer,
} from './effects.js';

/** Recording becomes available this long after it becomes possible (the spec's "initial delay"). */
export const RECORDING_INITIAL_DELAY_MS = 100;
export const READY_TIMER = 'voice:ready';

export const VOICE_STATES = ['IDLE', 'PLAYER_SPEAKING', 'PROCESSING', 'GAME_SPEAKING'] as const;
export type VoiceState = (typeof VOICE_STATES)[number];

/** Button labels; PROCESSING has none (a looping thinking sound plays instead). */
export const VOICE_LABELS = { IDLE: 'REC', PLAYER_SPEAKING: 'STOP', PROCESSING: null, GAME_SPEAKING: 'SKIP' } as const;
export type NativeVoiceState = Exclude<VoiceState, 'PLAYER_SPEAKING'>;

/** One AUDIO_ANSWER; the runner keeps the bytes under `id`. */
export interface DialogueAudio {
  readonly id: string;
  readonly playerMomentId: string;
}

export interface VoiceLoop {
  readonly recording: boolean;
  readonly processing: boolean;
  readonly playing: DialogueAudio | null;
  readonly queue: readonly DialogueAudio[];
  readonly battlePhase: BattlePhase | '';
  /** The initial delay has elapsed since recording last became possible. */
  readonly ready: boolean;
}

export type VoiceEvent =
  | { readonly type: 'click' }
  /**
   * Recording began outside a click: the native wrapper's RECORDING_STARTED, or a terminal recorder. What plays is
   * skipped and the queue cleared (the player talks over it), and audio arriving meanwhile is discarded.
   */
  | { readonly type: 'recording_started' }
  /** The recorder stopped on its own: silence auto-stop, native RECORDING_COMPLETE or RECORDING_ERROR. */
  | { readonly type: 'recording_stopped' }
  /** A USER_INPUT went out (moment start or a recorded answer). */
  | { readonly type: 'input_sent' }
  | { readonly type: 'output_received'; readonly battlePhase: BattlePhase | '' }
  /** ERROR_MESSAGE: the server will not answer this input. */
  | { readonly type: 'processing_failed' }
  | { readonly type: 'audio_received'; readonly audio: DialogueAudio }
  /** The audio `id` played to its end or failed to play (playback failures are only warned). */
  | { readonly type: 'audio_ended'; readonly id: string }
  /** The player's voice was heard (barge-in). */
  | { readonly type: 'player_speech' }
  /** A new moment: stop everything and start over. */
  | { readonly type: 'reset' }
  | TimerFired;

export type VoiceEffect =
  | TimerEffect
  | { readonly type: 'start_recording' }
  | { readonly type: 'stop_recording' }
  | { readonly type: 'play_audio'; readonly audio: DialogueAudio }
  | { readonly type: 'stop_audio' }
  /** Audio the runner may drop: discarded on arrival or cleared from the queue. */
  | { readonly type: 'discard_audio'; readonly ids: readonly string[] }
  | { readonly type: 'play_sound'; readonly sound: 'record' | 'thinking'; readonly loop: boolean }
  | { readonly type: 'stop_sound'; readonly sound: 'thinking' }
  | { readonly type: 'notify_native'; readonly state: NativeVoiceState };

export type VoiceTransition = Transition<VoiceLoop, VoiceEffect>;

const EMPTY: VoiceLoop = { recording: false, processing: false, playing: null, queue: [], battlePhase: '', ready: false };

/** The first state and its effects: the native wrapper hears IDLE and the initial delay starts. */
export function initVoiceLoop(): VoiceTransition {
  return {
    state: EMPTY,
    effects: [startTimer(READY_TIMER, RECORDING_INITIAL_DELAY_MS), { type: 'notify_native', state: 'IDLE' }],
  };
}

/** Nothing processing, no audio playing, an empty queue, and the battle not in ai_attack_selection. */
export function canRecordNow(loop: VoiceLoop): boolean {
  return !loop.processing && loop.playing === null && loop.queue.length === 0 && loop.battlePhase !== 'ai_attack_selection';
}

// The spec leaves open what shows during the 100 ms delay. We show IDLE with the button disabled: calling it PROCESSING
// would start the thinking sound for 100 ms after every reply, and the delay still swallows a double-click on SKIP.
export function voiceState(loop: VoiceLoop): VoiceState {
  if (loop.recording) return 'PLAYER_SPEAKING';
  if (canRecordNow(loop)) return 'IDLE';
  return loop.playing !== null ? 'GAME_SPEAKING' : 'PROCESSING';
}

export interface VoiceButton {
  readonly state: VoiceState;
  readonly label: string | null;
  readonly enabled: boolean;
}

export function voiceButton(loop: VoiceLoop): VoiceButton {
  const state = voiceState(loop);
  switch (state) {
    case 'IDLE': return { state, label: VOICE_LABELS.IDLE, enabled: loop.ready };
    case 'PLAYER_SPEAKING': return { state, label: VOICE_LABELS.PLAYER_SPEAKING, enabled: true };
    case 'PROCESSING': return { state, label: VOICE_LABELS.PROCESSING, enabled: false };
    // Skipping is possible whenever something plays, which GAME_SPEAKING implies.
    case 'GAME_SPEAKING': return { state, label: VOICE_LABELS.GAME_SPEAKING, enabled: true };
  }
}

export function transitionVoiceLoop(loop: VoiceLoop, event: VoiceEvent): VoiceTransition {
  switch (event.type) {
    case 'click': return click(loop);
    case 'recording_started': {
      if (loop.recording) return { state: loop, effects: [] };
      const skipped = loop.playing !== null || loop.queue.length > 0 ? skipAll(loop) : { state: loop, effects: [] };
      return settle(loop, { ...skipped.state, recording: true }, skipped.effects);
    }
    case 'recording_stopped': return settle(loop, { ...loop, recording: false }, []);
    case 'input_sent': return settle(loop, { ...loop, processing: true }, []);
    case 'output_received': return settle(loop, { ...loop, processing: false, battlePhase: event.battlePhase }, []);
    case 'processing_failed': return settle(loop, { ...loop, processing: false }, []);
    case 'audio_received': return audioReceived(loop, event.audio);
    case 'audio_ended':
      // A late 'ended' of audio that was skipped is ignored.
      return loop.playing?.id === event.id ? advanceQueue(loop, []) : { state: loop, effects: [] };
    case 'player_speech': return voiceState(loop) === 'GAME_SPEAKING' ? skipCurrent(loop) : { state: loop, effects: [] };
    case 'reset': return reset(loop);
    case 'timer': return timer(loop, event.key);
  }
}

function click(loop: VoiceLoop): VoiceTransition {
  switch (voiceState(loop)) {
    case 'IDLE':
      if (!loop.ready) return refuse(loop, 'voice/not_ready', 'Recording is not available yet.');
      return settle(loop, { ...loop, recording: true }, [
        { type: 'start_recording' },
        { type: 'play_sound', sound: 'record', loop: false },
      ]);
    case 'PLAYER_SPEAKING':
      return settle(loop, { ...loop, recording: false }, [{ type: 'stop_recording' }]);
    case 'GAME_SPEAKING':
      return skipAll(loop);
    case 'PROCESSING':
      return refuse(loop, 'voice/busy', 'The game is thinking.');
  }
}

/** SKIP: stop the current audio and clear the queue. */
function skipAll(loop: VoiceLoop): VoiceTransition {
  const effects: VoiceEffect[] = [{ type: 'stop_audio' }];
  if (loop.queue.length > 0) effects.push({ type: 'discard_audio', ids: loop.queue.map((a) => a.id) });
  return settle(loop, { ...loop, playing: null, queue: [] }, effects);
}

/** Barge-in: only the current audio is skipped; the next queued line plays (the spec separates the two). */
function skipCurrent(loop: VoiceLoop): VoiceTransition {
  return advanceQueue(loop, [{ type: 'stop_audio' }]);
}

/** The current audio is over: the next queued line plays, in the same step so the button does not flicker. */
function advanceQueue(loop: VoiceLoop, effects: readonly VoiceEffect[]): VoiceTransition {
  const [head, ...rest] = loop.queue;
  if (head === undefined) return settle(loop, { ...loop, playing: null }, effects);
  return settle(loop, { ...loop, playing: head, queue: rest }, [...effects, { type: 'play_audio', audio: head }]);
}

function audioReceived(loop: VoiceLoop, audio: DialogueAudio): VoiceTransition {
  if (loop.recording) return { state: loop, effects: [{ type: 'discard_audio', ids: [audio.id] }] };
  if (loop.playing !== null) return settle(loop, { ...loop, queue: [...loop.queue, audio] }, []);
  return settle(loop, { ...loop, playing: audio }, [{ type: 'play_audio', audio }]);
}

function reset(loop: VoiceLoop): VoiceTransition {
  const effects: VoiceEffect[] = [];
  if (loop.recording) effects.push({ type: 'stop_recording' });
  if (loop.playing !== null) effects.push({ type: 'stop_audio' });
  if (loop.queue.length > 0) effects.push({ type: 'discard_audio', ids: loop.queue.map((a) => a.id) });
  return settle(loop, { ...EMPTY, ready: loop.ready && canRecordNow(loop) }, effects);
}

function timer(loop: VoiceLoop, key: string): VoiceTransition {
  // A stale firing (recording blocked again since it was armed) is ignored.
  if (key !== READY_TIMER || loop.ready || !canRecordNow(loop)) return { state: loop, effects: [] };
  return { state: { ...loop, ready: true }, effects: [] };
}

/** Re-arms the delay when recording becomes possible, and reports a change of button state. */
function settle(before: VoiceLoop, after: VoiceLoop, effects: readonly VoiceEffect[]): VoiceTransition {
  const out: VoiceEffect[] = [...effects];
  let next = after;
  const could = canRecordNow(before);
  const can = canRecordNow(after);
  if (can && !could) {
    next = { ...next, ready: false };
    out.push(startTimer(READY_TIMER, RECORDING_INITIAL_DELAY_MS));
  } else if (!can && could) {
    next = { ...next, ready: false };
    if (!before.ready) out.push(cancelTimer(READY_TIMER));
  }
  const from = voiceState(before);
  const to = voiceState(next);
  if (from !== to) {
    if (from === 'PROCESSING') out.push({ type: 'stop_sound', sound: 'thinking' });
    if (to === 'PROCESSING') out.push({ type: 'play_sound', sound: 'thinking', loop: true });
    if (to !== 'PLAYER_SPEAKING') out.push({ type: 'notify_native', state: to });
  }
  return { state: next, effects: out };
}
