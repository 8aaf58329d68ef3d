// The browser's half of the voice loop: REC opens the microphone (recorder.ts), the recording ends on > 3000 ms of
// silence or on STOP, and its MP3 goes out as a USER_INPUT with no transcription (the server recognises it).
// A stop the player did not ask for (a new moment, the game closing) drops the recording. While a reply plays, the
// player's voice skips it (barge-in.ts).
import type { PlayModel } from '../../../../engine/client/game-screen/model.js';
import { voiceState } from '../../../../engine/client/voice-loop.js';
import { GAME_TEXT } from '../game-text.js';
import { BargeIn } from './barge-in.js';
import { mark, MARK } from './marks.js';
import { Mp3Encoder } from './mp3-encoder.js';
import { BrowserRecorder, canRecord, MicError } from './recorder.js';
import type { RecordingEffect, VoiceHost, VoiceInput } from './voice-input.js';

export class BrowserVoice implements VoiceInput {
  readonly kind = 'browser';
  readonly #encoder = new Mp3Encoder();
  readonly #recorder: BrowserRecorder;
  #sends = 0;
  /** The player recorded in this game: the microphone is allowed, so barge-in may listen without asking. */
  #recorded = false;
  readonly #bargeIn = new BargeIn(() => this.host.dispatch({ type: 'player_speech' }));

  constructor(readonly host: VoiceHost) {
    this.#recorder = new BrowserRecorder(this.#encoder, () => {
      // The silence rule stopped it: the loop goes back to IDLE, the answer goes out.
      this.host.dispatch({ type: 'recording_stopped' });
      void this.#send('silence');
    });
  }

  observe(model: PlayModel): void {
    if (this.#recorded && voiceState(model.voice) === 'GAME_SPEAKING') this.#bargeIn.start();
    else this.#bargeIn.stop();
  }

  warm(): void {
    if (canRecord()) this.#encoder.warm();
  }

  effect(e: RecordingEffect, byClick: boolean): void {
    switch (e.type) {
      case 'start_recording': this.#start(); return;
      case 'stop_recording':
        if (byClick) void this.#send('click');
        else this.#recorder.cancel();
        return;
      case 'notify_native': return; // no wrapper to tell
    }
  }

  #start(): void {
    if (!canRecord()) {
      this.#refuse(GAME_TEXT.micUnsupported);
      return;
    }
    this.#bargeIn.stop();
    this.#recorder.start().then(() => {
      this.#recorded = true;
    }, (e: unknown) => {
      console.warn('microphone unavailable', e instanceof MicError ? e.reason ?? e : e);
      this.#refuse(e instanceof MicError ? e.text : GAME_TEXT.micNeeded);
    });
  }

  /** The spec's alert text, and the loop back to IDLE. */
  #refuse(text: string): void {
    this.host.setMicError(text);
    if (this.host.model.voice.recording) this.host.dispatch({ type: 'recording_stopped' });
  }

  async #send(by: 'click' | 'silence'): Promise<void> {
    const seq = ++this.#sends;
    let rec;
    try {
      rec = await this.#recorder.finish(by);
    } catch (e) {
      // Spec §8: an encoding error is logged only; no audio goes out.
      console.warn('recording not encoded', e);
      return;
    }
    if (!rec || seq !== this.#sends) return; // silence only: nothing to send
    mark(MARK.AUDIO_SENT, { bytes: rec.bytes.length, seconds: rec.seconds, encodeMs: rec.encodeMs });
    this.host.sendAudio({ bytes: rec.bytes, format: 'mp3', label: `${rec.seconds.toFixed(1)} s`, sample_rate: rec.sampleRate, channels: 1 });
  }

  dispose(): void {
    this.#bargeIn.stop();
    this.#recorder.cancel();
    this.#encoder.close();
  }
}
