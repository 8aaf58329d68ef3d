// Speaking a turn's lines: one AUDIO_ANSWER frame per sentence chunk from the synthesizer, the first sent as soon as
// it is ready. Never placeholder audio: with no synthesizer nothing is sent.
import { performance } from 'node:perf_hooks';
import type { ServerFrame } from '../../engine/protocol/frames.js';
import type { TurnReply } from '../game/service.js';
import type { Logger } from '../log.js';
import type { Synthesizer } from './synthesizer.js';

export function speaker(synth: Synthesizer | null, log: Logger) {
  return async (reply: TurnReply, send: (frame: ServerFrame) => boolean): Promise<void> => {
    if (!synth || reply.speak.length === 0) return;
    const t0 = performance.now();
    let first: number | null = null;
    let chunks = 0;
    for (const line of reply.speak) {
      const bc = line.blueprint_character_id ? reply.story?.characters.find((c) => c.id === line.blueprint_character_id) : undefined;
      try {
        for await (const audio of synth.speak({
          text: line.text, language: reply.language, emotion: line.emotion, intensity: line.intensity,
          ...(bc?.voice ? { voice: bc.voice } : {}), ...(line.blueprint_character_id ? { speaker: line.blueprint_character_id } : {}),
        })) {
          if (audio.length === 0) continue;
          first ??= performance.now() - t0;
          chunks++;
          if (!send({ type: 'AUDIO_ANSWER', header: { player_moment_id: line.player_moment_id, is_starting_dialogue: line.is_starting_dialogue, input_id: line.input_id }, audio })) return;
        }
      } catch (err) {
        log.warn({ err, input_id: line.input_id }, 'speech synthesis failed; the line is sent as text only');
      }
    }
    reply.stages.tts_first_chunk = first === null ? -1 : Math.round(first * 10) / 10;
    log.debug({ chunks, stages: reply.stages }, 'spoken');
  };
}
