// Text-to-speech through an OpenAI-compatible API (POST {base}/audio/speech, response_format mp3), one request per
// sentence with the next one already on its way. Each character keeps one voice: the story's voice name, a fixed
// map, or a stable pick from a list. A failed sentence is skipped (no placeholder audio). The key is never logged.
import type { Logger } from '../log.js';
import { apiUrl } from './http-stt.js';
import { splitSentences } from './sentences.js';
import type { SpeakRequest, Synthesizer } from './synthesizer.js';
import { stableHash } from './voices.js';

export type HttpTtsOptions = {
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Voices picked from by speaker id when no voice is mapped. */
  voices: readonly string[];
  /** speaker id -> voice */
  voiceMap?: Readonly<Record<string, string>>;
  timeoutMs?: number;
  log?: Logger;
  fetch?: typeof fetch;
};

/** Speaking speed by emotion at full intensity (OpenAI accepts 0.25 to 4). */
const SPEED: Readonly<Record<string, number>> = { anger: 1.15, fear: 1.12, happiness: 1.08, surprise: 1.05, sadness: 0.85, disgust: 0.92 };

export class HttpSynthesizer implements Synthesizer {
  readonly name = 'http';
  readonly #url: string;

  constructor(private readonly opts: HttpTtsOptions) {
    this.#url = apiUrl(opts.baseUrl, 'audio/speech');
  }

  voiceFor(req: Pick<SpeakRequest, 'voice' | 'speaker'>): string {
    if (req.voice?.name) return req.voice.name;
    const mapped = req.speaker ? this.opts.voiceMap?.[req.speaker] : undefined;
    if (mapped) return mapped;
    const list = this.opts.voices.length > 0 ? this.opts.voices : ['alloy'];
    return (req.speaker ? list[stableHash(req.speaker) % list.length] : list[0]) ?? 'alloy';
  }

  async #sentence(input: string, voice: string, speed: number): Promise<Uint8Array | null> {
    const doFetch = this.opts.fetch ?? fetch;
    for (let attempt = 1; attempt <= 2; attempt++) {
      try {
        const res = await doFetch(this.#url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}) },
          body: JSON.stringify({ model: this.opts.model, input, voice, response_format: 'mp3', ...(speed !== 1 ? { speed } : {}) }),
          signal: AbortSignal.timeout(this.opts.timeoutMs ?? 20_000),
        });
        if (res.ok) {
          const bytes = new Uint8Array(await res.arrayBuffer());
          if (bytes.length > 0) return bytes;
          this.opts.log?.warn({ tts: 'http', attempt }, 'text-to-speech answered no audio');
          return null;
        }
        await res.body?.cancel().catch(() => undefined);
        this.opts.log?.warn({ tts: 'http', status: res.status, attempt }, 'text-to-speech request failed');
        if (!(res.status === 408 || res.status === 429 || res.status >= 500)) return null;
      } catch (err) {
        const timeout = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
        this.opts.log?.warn({ tts: 'http', attempt, error: timeout ? 'timeout' : err instanceof Error ? err.message : 'error' }, 'text-to-speech request failed');
      }
    }
    return null;
  }

  async *speak(req: SpeakRequest): AsyncGenerator<Uint8Array> {
    const voice = this.voiceFor(req);
    const k = Math.min(5, Math.max(1, Math.round(req.intensity || 1))) / 5;
    const speed = Math.round((1 + ((SPEED[req.emotion] ?? 1) - 1) * k) * 100) / 100;
    const sentences = splitSentences(req.text);
    // Two requests in flight: the next sentence is being made while the current one is sent.
    const jobs: Promise<Uint8Array | null>[] = [];
    const start = (i: number): void => {
      const s = sentences[i];
      if (s !== undefined && jobs[i] === undefined) jobs[i] = this.#sentence(s, voice, speed);
    };
    start(0);
    for (let i = 0; i < sentences.length; i++) {
      start(i + 1);
      const audio = await (jobs[i] ?? Promise.resolve(null));
      if (audio) yield audio;
    }
  }
}
