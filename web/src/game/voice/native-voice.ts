// The native wrapper's half of the voice loop (docs/native-bridge.md): the wrapper records and may transcribe; the
// page tells it the game's state (idle, processing, game-speaking) and when the player taps REC / STOP, and hears
// back RECORDING_STARTED, RECORDING_COMPLETE (sent to the server as a USER_INPUT with the audio and, when the wrapper
// heard the words, the transcription), RECORDING_ERROR (logged; back to IDLE) and AUDIO_LEVEL (barge-in).
import { voiceState } from '../../../../engine/client/voice-loop.js';
import type { AudioFormat } from '../../../../engine/protocol/user-input.js';
import type { LooptaleNativeBridge } from '../../native/bridge.js';
import { mark, MARK } from './marks.js';
import { NATIVE_STATE, NativeEvent, type PageMessage, SPEECH_LEVEL_DB } from './native-events.js';
import type { RecordingEffect, VoiceHost, VoiceInput } from './voice-input.js';

declare global {
  interface Window {
    /** The wrapper delivers its events here (a JSON string, or the object itself). */
    looptaleNativeEvent?: (message: unknown) => void;
  }
}

function fromBase64(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i += 1) out[i] = bin.charCodeAt(i);
  return out;
}

const FORMAT: Record<'pcm' | 'pcm16' | 'wav' | 'mp3', AudioFormat> = { pcm: 'pcm16', pcm16: 'pcm16', wav: 'wav', mp3: 'mp3' };

export class NativeVoice implements VoiceInput {
  readonly kind = 'native';
  /** The page asked the wrapper to drop the recording: its RECORDING_COMPLETE is ignored. */
  #cancelled = false;
  readonly #receive = (message: unknown): void => this.receive(message);

  constructor(readonly host: VoiceHost, readonly bridge: LooptaleNativeBridge) {
    window.looptaleNativeEvent = this.#receive;
  }

  warm(): void {}

  observe(): void {} // the wrapper reports barge-in itself (AUDIO_LEVEL)

  #post(m: PageMessage): void {
    try {
      this.bridge.postMessage(JSON.stringify(m));
    } catch (e) {
      console.warn('native bridge refused a message', e);
    }
  }

  effect(e: RecordingEffect, byClick: boolean): void {
    switch (e.type) {
      case 'notify_native': this.#post({ type: 'GAME_STATE', state: NATIVE_STATE[e.state] }); return;
      case 'start_recording':
        this.#cancelled = false;
        this.#post({ type: 'START_RECORDING' });
        return;
      case 'stop_recording':
        if (byClick) {
          this.#post({ type: 'STOP_RECORDING' });
        } else {
          this.#cancelled = true;
          this.#post({ type: 'CANCEL_RECORDING' });
        }
    }
  }

  /** One message from the wrapper. */
  receive(message: unknown): void {
    let raw = message;
    try {
      if (typeof message === 'string') raw = JSON.parse(message);
    } catch {
      console.warn('native event is not JSON', message);
      return;
    }
    const parsed = NativeEvent.safeParse(raw);
    if (!parsed.success) {
      console.warn('unknown native event', raw, parsed.error.issues[0]?.message);
      return;
    }
    const ev = parsed.data;
    const voice = this.host.model.voice;
    switch (ev.type) {
      case 'RECORDING_STARTED':
        // The wrapper began on its own or after START_RECORDING: what plays is skipped, arriving audio discarded.
        this.#cancelled = false;
        this.host.dispatch({ type: 'recording_started' });
        return;
      case 'RECORDING_ERROR':
        console.warn('native recording failed', ev.message ?? '');
        if (voice.recording) this.host.dispatch({ type: 'recording_stopped' });
        return;
      case 'AUDIO_LEVEL':
        if (ev.level >= SPEECH_LEVEL_DB && voiceState(voice) === 'GAME_SPEAKING') this.host.dispatch({ type: 'player_speech' });
        return;
      case 'RECORDING_COMPLETE': {
        if (voice.recording) this.host.dispatch({ type: 'recording_stopped' });
        if (this.#cancelled) {
          this.#cancelled = false;
          return;
        }
        mark(MARK.SPEECH_END, { by: 'native' });
        const words = ev.transcription?.trim() ?? '';
        const bytes = ev.audioData ? fromBase64(ev.audioData) : new Uint8Array();
        if (bytes.length === 0 && !words) return; // nothing said
        const seconds = ev.format === 'pcm' || ev.format === 'pcm16' ? bytes.length / (ev.sampleRate * ev.channels * 2) : 0;
        mark(MARK.AUDIO_SENT, { bytes: bytes.length, seconds });
        this.host.sendAudio({
          bytes, format: FORMAT[ev.format], label: seconds ? `${seconds.toFixed(1)} s` : 'native recording',
          sample_rate: ev.sampleRate, channels: ev.channels, bits_per_sample: ev.bitsPerSample,
        }, words || undefined);
      }
    }
  }

  dispose(): void {
    if (window.looptaleNativeEvent === this.#receive) delete window.looptaleNativeEvent;
  }
}
