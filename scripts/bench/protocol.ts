// Codec throughput: encode + decode of (a) a USER_INPUT carrying 100 KB of audio and (b) a realistic battle-turn
// GAME_OUTPUT. Called by scripts/bench.ts; run alone with `npx tsx -e "import('./scripts/bench/protocol.ts').then(m => m.run()).then(console.log)"`.
import { performance } from 'node:perf_hooks';
import { decodeClientFrame, decodeServerFrame, encodeFrame } from '../../engine/protocol/codec.js';
import { type DecodeResult } from '../../engine/protocol/errors.js';
import { type Frame } from '../../engine/protocol/frames.js';
import { sampleAudio, sampleGameOutput, sampleUserInput } from '../../engine/protocol/samples.js';

export interface BenchOptions {
  /** Target measuring time per case, in milliseconds. Default 1000. */
  durationMs?: number;
}

interface CaseResult {
  bytes_per_frame: number;
  iterations: number;
  seconds: number;
  /** One op = encode one frame and decode it back (with zod validation). */
  ops_per_sec: number;
  /** Frame bytes per second through encode + decode, in MB/s (10^6 bytes). */
  mb_per_sec: number;
  /** Mean microseconds per encode + decode. */
  us_per_op: number;
}

const AUDIO_BYTES = 100 * 1000;
const WARMUP_MS = 150;

export async function run(opts: BenchOptions = {}): Promise<Record<string, unknown>> {
  const durationMs = opts.durationMs ?? 1000;
  const userInput: Frame = { type: 'USER_INPUT', input: sampleUserInput(), audio: sampleAudio(AUDIO_BYTES) };
  const gameOutput: Frame = { type: 'GAME_OUTPUT', output: sampleGameOutput() };
  const user_input_100kb_audio = measure(userInput, decodeClientFrame, durationMs);
  await breather();
  const game_output = measure(gameOutput, decodeServerFrame, durationMs);
  return { name: 'protocol', node: process.version, duration_ms_per_case: durationMs, user_input_100kb_audio, game_output };
}

function measure(
  frame: Frame,
  decode: (bytes: Uint8Array) => DecodeResult<Frame>,
  durationMs: number,
): CaseResult {
  const wire = encodeFrame(frame);
  const check = decode(wire);
  if (!check.ok) throw new Error(`The bench frame does not decode: ${check.error.message}`);

  loop(frame, decode, WARMUP_MS);
  const { iterations, ms, sink } = loop(frame, decode, durationMs);
  if (sink === 0) throw new Error('Nothing was decoded.'); // also keeps the results observably used

  const seconds = ms / 1000;
  const opsPerSec = iterations / seconds;
  return {
    bytes_per_frame: wire.length,
    iterations,
    seconds: round(seconds, 3),
    ops_per_sec: Math.round(opsPerSec),
    mb_per_sec: round((opsPerSec * wire.length) / 1e6, 1),
    us_per_op: round((ms * 1000) / iterations, 2),
  };
}

/** Encode + decode in batches until `durationMs` has passed; the clock is read once per batch. */
function loop(
  frame: Frame,
  decode: (bytes: Uint8Array) => DecodeResult<Frame>,
  durationMs: number,
): { iterations: number; ms: number; sink: number } {
  let iterations = 0;
  let batch = 16;
  let sink = 0;
  const start = performance.now();
  let now = start;
  while (now - start < durationMs) {
    for (let i = 0; i < batch; i++) {
      const r = decode(encodeFrame(frame));
      if (r.ok) sink++;
    }
    iterations += batch;
    now = performance.now();
    // Grow batches while they are short, so clock reads stay negligible without overshooting the duration much.
    if (now - start < durationMs / 20) batch *= 2;
  }
  return { iterations, ms: now - start, sink };
}

/** Lets pending I/O and timers run between cases, so one case's garbage is not billed to the next. */
function breather(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
