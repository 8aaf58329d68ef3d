// The browser's microphone (game spec §4 "Voice loop"): getUserMedia with the browser's processing off, 4096-sample
// mono blocks judged by the shared silence rule (engine/client/silence.ts: RMS < 0.01 is silence, only non-silent
// blocks are kept, more than 3000 ms of continuous silence stops the recording), the kept blocks MP3-encoded in a
// worker as they come. One recording at a time; the microphone is released when it ends, so the browser's recording
// indicator shows only while the player is recorded.
import { INITIAL_SILENCE, observeBlock, SILENCE_BLOCK_SAMPLES, type SilenceDetector } from '../../../../engine/client/silence.js';
import { GAME_TEXT } from '../game-text.js';
import { mark, MARK } from './marks.js';
import type { Mp3Encoder } from './mp3-encoder.js';

/** What the recording gave: MP3 bytes of the kept (non-silent) blocks. */
export interface Recording {
  readonly bytes: Uint8Array;
  readonly sampleRate: number;
  /** Seconds of audio kept. */
  readonly seconds: number;
  readonly encodeMs: number;
}

export class MicError extends Error {
  constructor(readonly text: string, readonly reason?: unknown) {
    super(text);
  }
}

/** Processing off: with Chromium's defaults the level and envelope change and recognition suffers (offline-voice.md). */
export const MIC_CONSTRAINTS: MediaTrackConstraints = { echoCancellation: false, noiseSuppression: false, autoGainControl: false, channelCount: 1 };

/** Sample rates an MP3 can carry; another context rate is resampled by the encoder to the nearest one above or 48 kHz. */
const MP3_RATES = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000] as const;

export function mp3Rate(contextRate: number): number {
  return MP3_RATES.find((r) => r >= contextRate) ?? 48000;
}

function audioContextClass(): typeof AudioContext | null {
  const w = window as unknown as { AudioContext?: typeof AudioContext; webkitAudioContext?: typeof AudioContext };
  return w.AudioContext ?? w.webkitAudioContext ?? null;
}

/** The browser can record: a microphone API and an audio context. */
export function canRecord(): boolean {
  return typeof navigator.mediaDevices?.getUserMedia === 'function' && audioContextClass() !== null;
}

function micErrorOf(e: unknown): MicError {
  const name = e instanceof DOMException || e instanceof Error ? e.name : '';
  // No device, or none the browser can use: recording is not possible here.
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'NotSupportedError') return new MicError(GAME_TEXT.micUnsupported, e);
  return new MicError(GAME_TEXT.micNeeded, e);
}

type Live = {
  ctx: AudioContext;
  stream: MediaStream | null;
  nodes: AudioNode[];
  detector: SilenceDetector;
  kept: number;
  heard: boolean;
  sampleRate: number;
  stopped: boolean;
};

export class BrowserRecorder {
  #live: Live | null = null;

  /** `onSilence`: the recording stopped itself (the caller then collects it with `finish()`). */
  constructor(readonly encoder: Mp3Encoder, readonly onSilence: () => void) {}

  get recording(): boolean {
    return this.#live !== null && !this.#live.stopped;
  }

  /**
   * Opens the microphone and starts recording. Call inside the player's tap: the audio context is created before
   * anything is awaited (Safari allows it only there). Throws a MicError with the spec's text.
   */
  async start(): Promise<void> {
    this.#release();
    const C = audioContextClass();
    if (!C || typeof navigator.mediaDevices?.getUserMedia !== 'function') throw new MicError(GAME_TEXT.micUnsupported);
    let ctx: AudioContext;
    try {
      ctx = new C();
    } catch (e) {
      throw new MicError(GAME_TEXT.micUnsupported, e);
    }
    const live: Live = { ctx, stream: null, nodes: [], detector: INITIAL_SILENCE, kept: 0, heard: false, sampleRate: ctx.sampleRate, stopped: false };
    this.#live = live;
    this.encoder.begin(mp3Rate(ctx.sampleRate), ctx.sampleRate);
    let stream: MediaStream;
    try {
      if (ctx.state === 'suspended') void ctx.resume();
      stream = await navigator.mediaDevices.getUserMedia({ audio: MIC_CONSTRAINTS });
    } catch (e) {
      if (this.#live === live) this.#release();
      else void ctx.close().catch(() => undefined);
      throw micErrorOf(e);
    }
    live.stream = stream;
    if (this.#live !== live || live.stopped) {
      // Stopped (or replaced) while the browser was asking: nothing is recorded.
      for (const t of stream.getTracks()) t.stop();
      return;
    }
    const source = ctx.createMediaStreamSource(stream);
    // ScriptProcessor hands over exactly the 4096-sample blocks the silence rule is defined on, down-mixed to mono,
    // in every browser (AudioWorklet renders 128 frames at a time and needs a module file; both capture the same).
    const proc = ctx.createScriptProcessor(SILENCE_BLOCK_SAMPLES, 1, 1);
    proc.onaudioprocess = (e) => this.#block(live, e.inputBuffer.getChannelData(0));
    source.connect(proc);
    // A script processor runs only when connected; it writes nothing, so the player does not hear themselves.
    proc.connect(ctx.destination);
    live.nodes = [source, proc];
  }

  #block(live: Live, samples: Float32Array): void {
    if (live.stopped || this.#live !== live) return;
    const d = observeBlock(live.detector, samples, live.sampleRate);
    live.detector = d.detector;
    if (d.keep) {
      if (!live.heard) {
        live.heard = true;
        mark(MARK.SPEECH_START);
      }
      live.kept += samples.length;
      // The buffer is reused by the browser: the encoder gets a copy (transferred, not copied again).
      this.encoder.push(samples.slice());
    }
    if (d.stop) {
      mark(MARK.SPEECH_END, { by: 'silence' });
      this.#stopCapture(live);
      this.onSilence();
    }
  }

  #stopCapture(live: Live): void {
    live.stopped = true;
    for (const n of live.nodes) n.disconnect();
    for (const t of live.stream?.getTracks() ?? []) t.stop();
    void live.ctx.close().catch(() => undefined);
  }

  /** Stops (if still recording) and gives the MP3 of what was kept; null when nothing was (silence only). */
  async finish(by: 'click' | 'native' | 'silence' = 'click'): Promise<Recording | null> {
    const live = this.#live;
    if (!live) return null;
    if (!live.stopped) {
      mark(MARK.SPEECH_END, { by });
      this.#stopCapture(live);
    }
    this.#live = null;
    const t0 = performance.now();
    const bytes = await this.encoder.finish();
    if (live.kept === 0 || bytes.length === 0) return null;
    return { bytes, sampleRate: mp3Rate(live.sampleRate), seconds: live.kept / live.sampleRate, encodeMs: performance.now() - t0 };
  }

  /** Drops the recording in progress (a new moment, the game closing): nothing is sent. */
  cancel(): void {
    this.#release();
  }

  #release(): void {
    const live = this.#live;
    this.#live = null;
    if (live && !live.stopped) this.#stopCapture(live);
  }
}
