// Several eSpeak workers side by side (TTS_WORKERS): one worker made a sentence at a time, so with 20 players talking
// the replies queued behind each other (first audio p50 2.9 s at 20 players with one worker on 2 cores). Each line
// goes to the worker speaking the fewest lines now; a line stays on its worker, so its sentences keep their order.
import type { EspeakStats, EspeakSynthesizer } from './espeak.js';
import type { SpeakRequest, Synthesizer } from './synthesizer.js';

export class EspeakPool implements Synthesizer {
  readonly name = 'espeak';
  readonly #members: { synth: EspeakSynthesizer; lines: number }[];

  constructor(members: readonly EspeakSynthesizer[]) {
    if (members.length === 0) throw new Error('an eSpeak pool needs at least one worker');
    this.#members = members.map((synth) => ({ synth, lines: 0 }));
  }

  /** Resolves once every worker is loaded and warm; reading it starts the lazy ones (speak() starts only those it uses). */
  get ready(): Promise<void> {
    const ready = Promise.all(this.#members.map((m) => m.synth.ready)).then(() => undefined);
    // Each member logs its own start-up failure; closing before ready is not an error of the pool.
    ready.catch(() => undefined);
    return ready;
  }

  /** Workers started so far: lazy members start on their first line, so an idle server has none. */
  get started(): number {
    return this.#members.filter((m) => m.synth.started).length;
  }

  get size(): number {
    return this.#members.length;
  }

  /** The members' counters added up. */
  get stats(): EspeakStats {
    const sum: EspeakStats = { made: 0, failed: 0, cancelled: 0, restarts: 0, idleStops: 0, queued: 0, inFlight: 0 };
    for (const m of this.#members) for (const k of Object.keys(sum) as (keyof EspeakStats)[]) sum[k] += m.synth.stats[k];
    return sum;
  }

  async *speak(req: SpeakRequest): AsyncGenerator<Uint8Array> {
    let member = this.#members[0];
    for (const m of this.#members) if (member && m.lines < member.lines) member = m;
    if (!member) return;
    member.lines++;
    try {
      yield* member.synth.speak(req);
    } finally {
      member.lines--;
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.#members.map((m) => m.synth.close()));
  }
}
