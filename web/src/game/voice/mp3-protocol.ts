// The messages between the page and the MP3 encoder worker (mp3-worker.ts): one recording at a time, blocks of mono
// samples in, the finished MP3 out. Blocks are encoded as they arrive, so stopping costs only the last frames.
export const MP3_KBPS = 128;

export type ToEncoder =
  /** `inputRate`: the samples' rate; `outputRate`: the MP3's (LAME resamples when they differ). */
  | { readonly type: 'begin'; readonly inputRate: number; readonly outputRate: number }
  /** Mono samples in [-1, 1] (the buffer is transferred). */
  | { readonly type: 'block'; readonly samples: Float32Array }
  | { readonly type: 'finish' };

export type FromEncoder =
  | { readonly type: 'ready' }
  /** The recording's MP3 (empty when no block came). */
  | { readonly type: 'done'; readonly bytes: Uint8Array; readonly encodeMs: number }
  | { readonly type: 'error'; readonly message: string };
