// Speaking a turn's lines: one AUDIO_ANSWER frame per sentence chunk from the synthesizer, the first sent as soon as
// it is ready. Everything a line needs (text, language, the character's voice) travels in its `speak` effect. Never
// placeholder audio: with no synthesizer nothing is sent.
import { performance } from 'node:perf_hooks';
import type { Effect } from '../../engine/run/effects.js';
import type { ServerFrame } from '../../engine/protocol/frames.js';
import type { Logger } from '../log.js';
import type { Synthesizer } from './synthesizer.js';

export type SpeakEffect = Extract<Effect, { type: 'speak' }>;

export type Spoken = {
  /** Synthesis start to the first audio chunk in ms (null: no audio came). */
  firstChunkMs: number | null;
  chunks: number;
  /** The socket refused a frame (closed or dropped as a slow consumer): the rest was not synthesised. */
  cut: boolean;
};

/**
 * Sends the lines' audio in order. `onFirst` runs right after the first AUDIO_ANSWER is handed to the socket, with the synthesis time. A line
 * the synthesizer fails on is logged and skipped (its text was already sent).
 */
export async function speakLines(
  synth: Synthesizer, lines: readonly SpeakEffect[], send: (frame: ServerFrame) => boolean, log: Logger, onFirst?: (firstChunkMs: number) => void,
): Promise<Spoken> {
  const t0 = performance.now();
  let firstChunkMs: number | null = null;
  let chunks = 0;
  for (const line of lines) {
    try {
      for await (const audio of synth.speak({
        text: line.text, language: line.language, emotion: line.emotion, intensity: line.intensity,
        ...(line.voice ? { voice: line.voice } : {}), ...(line.blueprint_character_id ? { speaker: line.blueprint_character_id } : {}),
      })) {
        if (audio.length === 0) continue;
        chunks++;
        const header = { player_moment_id: line.player_moment_id, is_starting_dialogue: line.is_starting_dialogue, input_id: line.input_id };
        if (!send({ type: 'AUDIO_ANSWER', header, audio })) return { firstChunkMs, chunks, cut: true };
        if (firstChunkMs === null) {
          firstChunkMs = Math.round((performance.now() - t0) * 10) / 10;
          onFirst?.(firstChunkMs);
        }
      }
    } catch (err) {
      log.warn({ err, input_id: line.input_id }, 'speech synthesis failed; the line is sent as text only');
    }
  }
  return { firstChunkMs, chunks, cut: false };
}
