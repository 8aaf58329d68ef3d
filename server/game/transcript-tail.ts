// The speech timings of each run's spoken turns in this process. A spoken turn's line is written by its commit (so a
// kill -9 during its speech loses no turn from the transcript) and completed with its speech timings once they are
// known; completions of a run are written in the order of their turns. A turn reserves its place when it commits
// and fills it in later.
import type { TranscriptLine } from '../../engine/sim/transcript.js';
import type { Logger } from '../log.js';
import type { GameStorePort } from './ports.js';

export type TranscriptSlot = {
  /** Writes the line in its place (at most once; later calls are ignored). */
  fill(lines: readonly TranscriptLine[]): void;
  /** Resolves once the line is written (or failed, which is logged). */
  written: Promise<void>;
};

export class TranscriptTail {
  readonly #tails = new Map<string, Promise<void>>();

  constructor(readonly store: Pick<GameStorePort, 'completeTranscriptLine'>, readonly log: Logger) {}

  /** True while a line of this run waits to be written: a new line must then take a place after it. */
  pending(runId: string): boolean {
    return this.#tails.has(runId);
  }

  reserve(runId: string): TranscriptSlot {
    let fill!: (lines: readonly TranscriptLine[]) => void;
    const ready = new Promise<readonly TranscriptLine[]>((r) => (fill = r));
    const prev = this.#tails.get(runId) ?? Promise.resolve();
    const written = prev.then(() => ready).then(async (lines) => {
      for (const line of lines) await this.store.completeTranscriptLine(runId, line);
    }).catch((err: unknown) => {
      this.log.error({ err, player_story_id: runId }, 'a turn was played but its speech timings were not written to its transcript line');
    });
    this.#tails.set(runId, written);
    void written.then(() => {
      if (this.#tails.get(runId) === written) this.#tails.delete(runId);
    });
    return { fill, written };
  }

  /** Resolves when every line reserved so far for this run is written. */
  async settled(runId: string): Promise<void> {
    while (this.#tails.has(runId)) await this.#tails.get(runId);
  }

  /** Resolves when no line waits (graceful shutdown). */
  async idle(): Promise<void> {
    while (this.#tails.size > 0) await Promise.all([...this.#tails.values()]);
  }
}
