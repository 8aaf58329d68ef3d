// The game screen's sounds at the spec's volumes (§9): background music 7%, thinking 0.7 of the base sound volume,
// default 0.5, start 0.3, bubbles 0.5. The files are ours (scripts/make-game-sounds.ts synthesizes them with sox).
// Each sound is one <audio> element in a hidden container (`[data-game-sounds]`, data-playing while it plays),
// created in the player's tap (unlock) so that browsers that need a gesture let them play.
import backgroundUrl from './sounds/background.mp3?url';
import bubble1Url from './sounds/bubble1.mp3?url';
import bubble2Url from './sounds/bubble2.mp3?url';
import bubble3Url from './sounds/bubble3.mp3?url';
import bubble4Url from './sounds/bubble4.mp3?url';
import closingUrl from './sounds/closing.mp3?url';
import hoverUrl from './sounds/hover.mp3?url';
import lostUrl from './sounds/lost.mp3?url';
import openingUrl from './sounds/opening.mp3?url';
import perfectUrl from './sounds/perfect.mp3?url';
import recordUrl from './sounds/record.mp3?url';
import startUrl from './sounds/start.mp3?url';
import thinkingUrl from './sounds/thinking.mp3?url';

export const DEFAULT_SOUND_VOLUME = 0.5;
export const SOUND_VOLUMES = {
  background: 0.07,
  thinking: 0.7 * DEFAULT_SOUND_VOLUME,
  start: 0.3,
  bubble: 0.5,
  default: DEFAULT_SOUND_VOLUME,
} as const;

const FILES = {
  background: backgroundUrl, thinking: thinkingUrl, start: startUrl, record: recordUrl, perfect: perfectUrl, lost: lostUrl,
  opening: openingUrl, closing: closingUrl, hover: hoverUrl, bubble1: bubble1Url, bubble2: bubble2Url, bubble3: bubble3Url, bubble4: bubble4Url,
} as const;

const BUBBLES = ['bubble1', 'bubble2', 'bubble3', 'bubble4'] as const;

export type SoundName = keyof typeof FILES | 'bubble';

function volumeOf(name: keyof typeof FILES): number {
  if (name === 'background') return SOUND_VOLUMES.background;
  if (name === 'thinking') return SOUND_VOLUMES.thinking;
  if (name === 'start') return SOUND_VOLUMES.start;
  if (name.startsWith('bubble')) return SOUND_VOLUMES.bubble;
  return SOUND_VOLUMES.default;
}

export class Sounds {
  #els = new Map<keyof typeof FILES, HTMLAudioElement>();
  #box: HTMLElement;
  #master = 1;
  #bubble = 0;

  constructor() {
    this.#box = document.createElement('div');
    this.#box.hidden = true;
    this.#box.setAttribute('data-game-sounds', '');
    document.body.append(this.#box);
  }

  #el(name: keyof typeof FILES): HTMLAudioElement {
    let el = this.#els.get(name);
    if (!el) {
      el = document.createElement('audio');
      el.preload = 'auto';
      el.src = FILES[name];
      el.dataset.sound = name;
      el.volume = volumeOf(name) * this.#master;
      el.onended = () => { delete el?.dataset.playing; };
      this.#box.append(el);
      this.#els.set(name, el);
    }
    return el;
  }

  /** Called inside the START tap: the elements exist and may play from now on. */
  unlock(): void {
    for (const name of ['thinking', 'record', 'start', 'background'] as const) this.#el(name);
  }

  /** The player's volume (0..1) scales every sound. */
  setVolume(v: number): void {
    this.#master = Math.max(0, Math.min(1, v));
    for (const [name, el] of this.#els) el.volume = volumeOf(name) * this.#master;
  }

  play(sound: SoundName, loop = false): void {
    const name: keyof typeof FILES = sound === 'bubble' ? BUBBLES[this.#bubble++ % BUBBLES.length] ?? 'bubble1' : sound;
    const el = this.#el(name);
    el.loop = loop;
    if (!loop) el.currentTime = 0;
    el.dataset.playing = '1';
    el.play().catch((e: unknown) => {
      delete el.dataset.playing;
      console.warn(`sound ${name} did not play`, e);
    });
  }

  stop(sound: SoundName): void {
    const el = this.#els.get(sound === 'bubble' ? 'bubble1' : sound);
    if (!el) return;
    el.pause();
    el.currentTime = 0;
    delete el.dataset.playing;
  }

  close(): void {
    for (const el of this.#els.values()) {
      el.pause();
      el.removeAttribute('src');
    }
    this.#els.clear();
    this.#box.remove();
  }
}
