// eSpeak NG compiled to WASM, in this thread: text to 22,050 Hz 16-bit mono samples, and text to IPA. One instance is
// reused (start-up ~150-400 ms, then a few ms per sentence). EspeakSynthesizer runs it in a worker thread; scripts and
// the grammar builder call it directly.
import init, { type ESpeakNGModule, type ESpeakNGWorker } from '@echogarden/espeak-ng-emscripten';

export const ESPEAK_RATE = 22050;

/** Everything eSpeak needs for one utterance. `voice` is a language voice with an optional variant: 'en-us+f2'. */
export type EspeakParams = { voice: string; rate: number; pitch: number; range: number; volume: number };

export const ESPEAK_LANGUAGE_VOICE = { english: 'en-us', french: 'fr' } as const;

/** The input is read as SSML-ish markup: escape what would be taken as tags or entities. */
function escapeMarkup(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, Math.round(v)));

/** The longest text (UTF-8 bytes) a `fresh` engine speaks from its first state; a longer one is spoken as it comes. */
const FRESH_MAX_BYTES = 8192;
/** The clock a `fresh` engine starts at (eSpeak seeds its random from it). */
const FRESH_CLOCK_MS = Date.UTC(2026, 0, 1);

export class EspeakEngine {
  readonly sampleRate = ESPEAK_RATE;
  #voice = '';
  /** The module's memory as it was once the engine was made (`fresh`). */
  readonly #start: Uint8Array | null;

  private constructor(private readonly w: ESpeakNGWorker, private readonly m: ESpeakNGModule | null) {
    if (m) {
      // The bindings pass strings through one buffer they allocate once and keep a pointer to (grown when a string does
      // not fit): allocated here, large enough for any text `synth` restores for, so that it is part of the first state.
      w.set_voice('x'.repeat(FRESH_MAX_BYTES));
      w.set_voice('en-us');
    }
    this.#start = m ? m.HEAPU8.slice() : null;
  }

  /** `fresh`: every utterance starts from the engine's first state, so the same text and settings always give the
   *  same samples. eSpeak's output otherwise depends on what it said before (its random jitter's state and more are
   *  carried from call to call): lint-speech's and the benches' clips, which must be the same run after run. Costs a
   *  copy of the module's memory (16 MB, ~2-5 ms) per utterance; the game's own voice does without. */
  static async create(opts: { fresh?: boolean } = {}): Promise<EspeakEngine> {
    const m = await init({ print: () => undefined, printErr: () => undefined });
    if (!opts.fresh) return new EspeakEngine(new m.eSpeakNGWorker(), null);
    // eSpeak seeds its random jitter (the female variants' breath) from the clock when it starts: a fixed clock for that
    // moment (synchronous: nothing else runs meanwhile), so that the first state is the same in every process.
    const now = Date.now;
    Date.now = () => FRESH_CLOCK_MS;
    try {
      return new EspeakEngine(new m.eSpeakNGWorker(), m);
    } finally {
      Date.now = now;
    }
  }

  #setVoice(voice: string): void {
    if (voice === this.#voice) return;
    // An unknown voice returns non-zero and keeps the previous one: fall back to the language voice without variant.
    if (this.w.set_voice(voice) !== 0) {
      const base = voice.split('+')[0] ?? 'en-us';
      if (this.w.set_voice(base) !== 0) this.w.set_voice('en-us');
    }
    this.#voice = voice;
  }

  /** The whole utterance as one array of samples at 22,050 Hz. */
  synth(text: string, p: EspeakParams): Int16Array {
    if (this.#start && this.m && Buffer.byteLength(text) + 64 < FRESH_MAX_BYTES) {
      // The memory grows, never shrinks: the first bytes are the whole first state (the rest is free heap).
      this.m.HEAPU8.set(this.#start);
      this.#voice = '';
    }
    this.#setVoice(p.voice);
    this.w.set_rate(clamp(p.rate, 80, 450));
    this.w.set_pitch(clamp(p.pitch, 0, 99));
    this.w.set_range(clamp(p.range, 0, 99));
    this.w.set_volume(clamp(p.volume, 0, 200));
    const parts: Int16Array[] = [];
    let total = 0;
    this.w.synthesize(escapeMarkup(text), (samples) => {
      if (samples.length > 0) {
        parts.push(samples);
        total += samples.length;
      }
      return false;
    });
    const out = new Int16Array(total);
    let at = 0;
    for (const part of parts) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  }

  /** IPA of a text, words separated by spaces and phonemes by '_' (eSpeak's own spelling-to-sound rules). */
  ipa(text: string, voice: string): string {
    this.#setVoice(voice);
    const r = this.w.synthesize_ipa(escapeMarkup(text));
    return r.code === 0 ? r.ipa.trim() : '';
  }
}
