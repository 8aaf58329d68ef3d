// The parts of @echogarden/espeak-ng-emscripten that Looptale uses (the package ships no types).
declare module '@echogarden/espeak-ng-emscripten' {
  export type EspeakEvent = { type: string; text_position: number; word_length: number; audio_position: number; id?: string | number };

  export interface ESpeakNGWorker {
    /** 0 on success; 2 when the voice is unknown (the previous voice stays). */
    set_voice(name: string): number;
    set_rate(wordsPerMinute: number): void;
    set_pitch(pitch: number): void;
    set_range(range: number): void;
    set_volume(volume: number): void;
    get_samplerate(): number;
    /** Synthesises text; the callback gets 16-bit chunks and returns true to stop. */
    synthesize(text: string, callback: (samples: Int16Array, events: EspeakEvent[]) => boolean | number): void;
    synthesize_ipa(text: string): { code: number; ipa: string };
    list_voices(): { identifier: string; name: string; languages: { priority: number; name: string }[] }[];
  }

  export interface ESpeakNGModule {
    eSpeakNGWorker: new () => ESpeakNGWorker;
    /** The module's memory (a new view after it grows). */
    HEAPU8: Uint8Array;
  }

  const init: (options?: Record<string, unknown>) => Promise<ESpeakNGModule>;
  export default init;
}
