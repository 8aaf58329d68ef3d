// The timings of one turn, in milliseconds, measured by the turn pipeline alone (the transport hands over when the
// frame arrived and how long decoding took). They go to GET /metrics, to the turn's log line and to its transcript
// line, under these names.
import { performance } from 'node:perf_hooks';

export type TurnStages = {
  /** Decoding the USER_INPUT frame (transport). */
  decode: number;
  /** Speech to text, when the input was audio. */
  stt?: number;
  /** The dialogue brain's decision (scripted or LLM). */
  brain?: number;
  /** The engine's step, summed over commit attempts. */
  step?: number;
  /** Store commits (one transaction each), summed over attempts. */
  commit?: number;
  /** Commit attempts (more than 1 after version conflicts with another process). */
  attempts?: number;
  /** From the pipeline's start (after decoding) to the committed turn. */
  total_server?: number;
  /** Frame arrival to the GAME_OUTPUT frames sent. */
  to_game_output?: number;
  /** Synthesis start to the first audio chunk (-1: synthesis failed). */
  tts_first_chunk?: number;
  /** Frame arrival to the first AUDIO_ANSWER sent. */
  to_first_audio?: number;
  /** GAME_OUTPUT sent to the first AUDIO_ANSWER sent. */
  tts_first_byte?: number;
  /** Frame arrival to what the player gets last of the turn's start: the first audio, else the GAME_OUTPUT. */
  total?: number;
};

/** Milliseconds since `t0` (a performance.now() reading), to 0.1 ms. */
export function msSince(t0: number): number {
  return Math.round((performance.now() - t0) * 10) / 10;
}

/** As a plain record (transcripts and metrics store a string -> number map). */
export function stageRecord(s: Partial<TurnStages>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(s)) if (typeof v === 'number') out[k] = v;
  return out;
}
