// One run being played in the browser: the shared GameController (engine/client/game-screen) over the app's realtime
// link, with the browser's halves of its effects: dialogue audio (audio-out.ts), sounds (sounds.ts), the microphone
// (voice/browser-voice.ts) or the native wrapper (voice/native-voice.ts). React only draws `model` and calls the methods below; no
// game rule lives here: timings, queues, the voice loop and the connection are the controller's and the link's.
import { GameController } from '../../../engine/client/game-screen/controller.js';
import { ServerHost } from '../../../engine/client/host/server-host.js';
import type { PlayEffect, PlayModel } from '../../../engine/client/game-screen/model.js';
import type { ResumeStore } from '../../../engine/client/game-screen/resume.js';
import { ApiError } from '../../../engine/client/api/http.js';
import type { Link } from '../../../engine/client/api/link.js';
import type { PlayLanguage } from '../../../engine/schema/enums.js';
import type { PlayerStory } from '../../../engine/schema/player.js';
import { api, browserClock, newId } from '../api/client.js';
import { openGameLink, watchNetwork } from '../api/realtime.js';
import type { AudioInput } from '../../../engine/client/game-screen/controller.js';
import { voiceButton } from '../../../engine/client/voice-loop.js';
import { nativeBridge } from '../native/bridge.js';
import { AudioOut } from './audio-out.js';
import { Sounds } from './sounds.js';
import { BrowserVoice } from './voice/browser-voice.js';
import { mark, MARK } from './voice/marks.js';
import { NativeVoice } from './voice/native-voice.js';
import type { RecordingEffect, VoiceHost, VoiceInput } from './voice/voice-input.js';

export type SessionListener = () => void;

/** The run's unseen turn (engine/client/game-screen/resume.ts) in this tab's sessionStorage: it survives a reload only. */
function unseenTurnStore(runId: string): ResumeStore {
  const key = `looptale:unseen-turn:${runId}`;
  return {
    load: () => {
      try {
        return window.sessionStorage.getItem(key);
      } catch {
        return null; // storage blocked: nothing to resume
      }
    },
    save: (text) => {
      try {
        if (text === null) window.sessionStorage.removeItem(key);
        else window.sessionStorage.setItem(key, text);
      } catch {
        // storage blocked or full: a reload then starts from the game view, as without it
      }
    },
  };
}

export class GameSession {
  readonly ctrl: GameController;
  readonly link: Link;
  readonly audio: AudioOut;
  readonly sounds: Sounds;
  /** A failure the screen shows besides the model's own error (a view read, ending the run). */
  #notice: string | null = null;
  #listeners = new Set<SessionListener>();
  #audioSeq = 0;
  #micError: string | null = null;
  #backgroundOn = false;
  #disposed = false;
  #unwatchNetwork: () => void;
  /** The microphone: the browser's, or the native wrapper's when it injected its bridge. */
  readonly voice: VoiceInput;
  /** A voice_click is being dispatched (a STOP from it sends the recording; a stop for another reason drops it). */
  #clicking = false;
  /** Replies (by input id) the player skipped with SKIP, and which reply each kept audio belongs to. */
  #skippedInputs = new Set<string>();
  #inputOfAudio = new Map<string, string>();
  /** An answer was recorded and sent: the next reply audio to play marks FIRST_AUDIO_PLAY. */
  #awaitingFirstAudio = false;
  /** The recording effects of the voice loop (start_recording, stop_recording, notify_native). */
  onVoiceEffect: (e: RecordingEffect) => void = (e) => this.voice.effect(e, this.#clicking);

  constructor(readonly run: PlayerStory, storyName: string, language: PlayLanguage) {
    this.sounds = new Sounds();
    this.audio = new AudioOut((id) => this.ctrl.dispatch({ type: 'audio_ended', id }), (id) => {
      if (!this.#awaitingFirstAudio) return;
      this.#awaitingFirstAudio = false;
      // The reply the audio belongs to: a late sentence of an earlier reply can play first (the web bench pairs by it).
      mark(MARK.FIRST_AUDIO_PLAY, { input_id: this.#inputOfAudio.get(id) ?? null });
    });
    // Before the controller: its first effects already tell the wrapper the loop is IDLE.
    const ctrl = (): GameController => this.ctrl;
    const host: VoiceHost = {
      get model() { return ctrl().model; },
      dispatch: (event) => ctrl().dispatch(event),
      sendAudio: (audio, transcription) => this.#sendAudio(audio, transcription),
      setMicError: (text) => this.setMicError(text),
    };
    const bridge = nativeBridge();
    this.voice = bridge ? new NativeVoice(host, bridge) : new BrowserVoice(host);
    this.link = openGameLink();
    this.#unwatchNetwork = watchNetwork(this.link);
    this.ctrl = new GameController(new ServerHost(api, this.link), run, storyName, {
      language, time: { mode: 'live', clock: browserClock }, newId,
      onEffect: (e) => this.#effect(e),
      onError: (err) => this.#fail(err),
      resume: unseenTurnStore(run.id),
    });
    this.link.onAudio = (chunk) => {
      // The rest of a reply the player skipped (its later sentences arrive after the tap) is not played.
      if (this.#skippedInputs.has(chunk.header.input_id)) return;
      const id = `a${++this.#audioSeq}`;
      this.#inputOfAudio.set(id, chunk.header.input_id);
      this.audio.keep(id, chunk.audio, chunk.header.input_id);
      this.ctrl.audioReceived(chunk, id);
    };
    this.link.onStatus = (status) => this.ctrl.dispatch({ type: 'connection', status });
    this.ctrl.subscribe((_e, _prev, next) => {
      this.voice.observe(next);
      this.#emit();
    });
    // A reload in the middle of a turn's presentation picks it up again; otherwise the game view is read.
    if (!this.ctrl.resumeUnseen()) void this.ctrl.refreshView().catch((err: unknown) => this.#fail(err));
  }

  get model(): PlayModel {
    return this.ctrl.model;
  }

  get notice(): string | null {
    return this.#notice;
  }

  subscribe = (listener: SessionListener): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  #emit(): void {
    for (const l of this.#listeners) l();
  }

  #fail(err: unknown): void {
    // The server not reached while the connection is down: the connection overlay already says so, and the view is
    // read again once it is back.
    if (err instanceof ApiError && err.status === 0 && (this.link.status !== 'connected' || !navigator.onLine)) return;
    this.#notice = err instanceof Error ? err.message : String(err);
    this.#emit();
  }

  /** 'Need to accept microphone access' / 'Audio recording is not supported in this browser.', until the next try. */
  get micError(): string | null {
    return this.#micError;
  }

  setMicError(text: string | null): void {
    this.#micError = text;
    this.#emit();
  }

  /** The record button: REC starts recording, STOP stops it, SKIP skips the reply (the voice loop decides). */
  voiceClick(): void {
    this.audio.unlock();
    this.#micError = null;
    const playing = this.ctrl.model.voice.playing;
    if (playing && voiceButton(this.ctrl.model.voice).state === 'GAME_SPEAKING') {
      const input = this.#inputOfAudio.get(playing.id);
      if (input) this.#skippedInputs.add(input);
    }
    this.#clicking = true;
    try {
      this.ctrl.dispatch({ type: 'voice_click' });
    } finally {
      this.#clicking = false;
    }
  }

  /** A recorded answer: the audio (and the wrapper's words, if any); words alone go as typed input. */
  #sendAudio(audio: AudioInput, transcription?: string): void {
    this.#awaitingFirstAudio = true;
    const sent = audio.bytes.length > 0 ? this.ctrl.sayAudio(audio, transcription) : transcription ? this.ctrl.say(transcription) : null;
    void sent?.catch((err: unknown) => this.#fail(err));
  }

  clearNotice(): void {
    this.#notice = null;
    this.#emit();
  }

  #effect(e: PlayEffect): void {
    switch (e.type) {
      case 'play_audio': this.audio.play(e.audio.id); return;
      case 'stop_audio': this.audio.stop(); return;
      case 'discard_audio': this.audio.discard(e.ids); return;
      case 'play_sound': this.sounds.play(e.sound, e.loop); return;
      case 'stop_sound': this.sounds.stop(e.sound); return;
      case 'start_recording':
      case 'stop_recording':
      case 'notify_native':
        this.onVoiceEffect(e);
        return;
      case 'start_timer':
      case 'cancel_timer':
      case 'fetch_moment':
        return; // run by the controller
    }
  }

  /** Start / Start next moment: a moment start (audio is unlocked in this tap, which Safari requires). */
  start(): void {
    this.audio.unlock();
    this.sounds.unlock();
    this.sounds.play('start', false);
    this.voice.warm();
    if (!this.#backgroundOn) {
      this.#backgroundOn = true;
      this.sounds.play('background', true);
    }
    void this.ctrl.start().catch((err: unknown) => this.#fail(err));
  }

  /** Typed input: always available, sent as `transcription`. */
  say(text: string): void {
    const t = text.trim();
    if (!t) return;
    this.audio.unlock();
    void this.ctrl.say(t).catch((err: unknown) => this.#fail(err));
  }

  async endRun(): Promise<void> {
    await this.ctrl.endRun();
  }

  /** Closing the game: every sound stops and the state is dropped. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.ctrl.forgetUnseen();
    this.#unwatchNetwork();
    this.voice.dispose();
    this.audio.close();
    this.sounds.close();
    this.ctrl.dispose();
    void this.link.close();
    this.#listeners.clear();
  }
}
