// The dialogue audio of the game screen: AUDIO_ANSWER bytes kept under the voice loop's ids and played one at a time
// when the loop says so (play_audio / stop_audio / discard_audio). Each line is an <audio> element in a hidden
// container (`[data-dialogue-audio]`, its state in data-state: queued, playing, ended, skipped, failed), routed through
// a Web Audio gain of 2.0 (the spec's dialogue gain) once the audio context was unlocked in the player's tap.
export const DIALOGUE_GAIN = 2.0;

type Line = { el: HTMLAudioElement; url: string };

function audioContextClass(): typeof AudioContext | null {
  const w = window as unknown as { AudioContext?: typeof AudioContext; webkitAudioContext?: typeof AudioContext };
  return w.AudioContext ?? w.webkitAudioContext ?? null;
}

export class AudioOut {
  #lines = new Map<string, Line>();
  #current: string | null = null;
  #ctx: AudioContext | null = null;
  #gain: GainNode | null = null;
  #box: HTMLElement;
  #volume = 1;

  /** `onPlaying`: a line really started to play (its first sound is out). */
  constructor(readonly onEnded: (id: string) => void, readonly onPlaying: (id: string) => void = () => undefined) {
    this.#box = document.createElement('div');
    this.#box.hidden = true;
    this.#box.setAttribute('data-dialogue-audio', '');
    document.body.append(this.#box);
  }

  /** Inside a tap: creates (or resumes) the audio context, which Safari allows only there. */
  unlock(): void {
    try {
      if (!this.#ctx) {
        const C = audioContextClass();
        if (!C) return;
        this.#ctx = new C();
        this.#gain = this.#ctx.createGain();
        this.#gain.gain.value = DIALOGUE_GAIN * this.#volume;
        this.#gain.connect(this.#ctx.destination);
      }
      if (this.#ctx.state === 'suspended') void this.#ctx.resume();
    } catch (e) {
      console.warn('audio context unavailable', e);
    }
  }

  /** The player's volume setting (0..1), on top of the dialogue gain. */
  setVolume(v: number): void {
    this.#volume = Math.max(0, Math.min(1, v));
    if (this.#gain) this.#gain.gain.value = DIALOGUE_GAIN * this.#volume;
  }

  /** Keeps a line's bytes; `inputId` (the USER_INPUT it answers) is shown as data-input for tests and tools. */
  keep(id: string, bytes: Uint8Array, inputId?: string): void {
    const url = URL.createObjectURL(new Blob([bytes.slice()], { type: 'audio/mpeg' }));
    const el = document.createElement('audio');
    el.preload = 'auto';
    el.src = url;
    el.dataset.id = id;
    if (inputId) el.dataset.input = inputId;
    el.dataset.state = 'queued';
    this.#box.append(el);
    this.#lines.set(id, { el, url });
  }

  play(id: string): void {
    const line = this.#lines.get(id);
    if (!line) {
      queueMicrotask(() => this.onEnded(id));
      return;
    }
    this.stop();
    this.#current = id;
    const { el } = line;
    if (this.#ctx && this.#gain && !el.dataset.routed) {
      try {
        this.#ctx.createMediaElementSource(el).connect(this.#gain);
        el.dataset.routed = '1';
      } catch (e) {
        console.warn('dialogue gain unavailable', e);
      }
    }
    el.onplaying = () => {
      el.onplaying = null;
      this.onPlaying(id);
    };
    el.onended = () => this.#finish(id, 'ended');
    el.onerror = () => this.#finish(id, 'failed');
    el.dataset.state = 'playing';
    el.play().catch((e: unknown) => {
      console.warn('dialogue audio did not play', e);
      this.#finish(id, 'failed');
    });
  }

  #finish(id: string, state: 'ended' | 'failed'): void {
    const line = this.#lines.get(id);
    if (line && line.el.dataset.state === 'playing') line.el.dataset.state = state;
    if (this.#current === id) this.#current = null;
    this.#release(id);
    this.onEnded(id);
  }

  /** SKIP, barge-in, a new moment: the line playing stops (the loop clears the queue with discard_audio). */
  stop(): void {
    const id = this.#current;
    if (!id) return;
    this.#current = null;
    const line = this.#lines.get(id);
    if (line) {
      line.el.onended = null;
      line.el.pause();
      line.el.dataset.state = 'skipped';
      this.#release(id);
    }
  }

  discard(ids: readonly string[]): void {
    for (const id of ids) {
      const line = this.#lines.get(id);
      if (line && line.el.dataset.state === 'queued') line.el.dataset.state = 'skipped';
      this.#release(id);
    }
  }

  #release(id: string): void {
    const line = this.#lines.get(id);
    if (!line) return;
    this.#lines.delete(id);
    URL.revokeObjectURL(line.url);
    // The element stays (its data-state tells what the player heard), without its source.
    line.el.removeAttribute('src');
  }

  close(): void {
    this.stop();
    for (const id of [...this.#lines.keys()]) this.#release(id);
    void this.#ctx?.close().catch(() => undefined);
    this.#box.remove();
  }
}
