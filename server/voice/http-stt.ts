// Speech-to-text through an OpenAI-compatible API (POST {base}/audio/transcriptions, multipart): MP3 and WAV are sent
// as recorded, raw PCM as a 16 kHz WAV; the moment's vocabulary goes as the prompt so names are spelt as the story
// spells them. One retry on network errors, timeouts, 429 and 5xx. The key and the audio are never logged.
import type { Logger } from '../log.js';
import { decodeSpeech } from './audio.js';
import { LANG_CODE } from '../../engine/schema/enums.js';
import { storableText } from '../../engine/schema/json-guard.js';
import type { TranscribeRequest, TranscribeResult, Transcriber } from './transcriber.js';
import { encodeWav } from './wav.js';
import { NOT_CAUGHT_TEXT } from '../../engine/protocol/turn-errors.js';

export type HttpSttOptions = {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs?: number;
  maxSeconds?: number;
  log?: Logger;
  fetch?: typeof fetch;
};

/** OpenAI limits the prompt to 224 tokens: keep it well under. */
const PROMPT_CHARS = 600;

/** {base}/audio/... where base already ends in a version (/v1), else {base}/v1/audio/... */
export function apiUrl(base: string, path: string): string {
  const b = base.replace(/\/+$/, '');
  return /\/v\d+[a-z]*$/i.test(b) ? `${b}/${path}` : `${b}/v1/${path}`;
}

export function vocabularyPrompt(vocabulary: readonly string[]): string {
  let out = '';
  for (const phrase of vocabulary) {
    const next = out ? `${out}, ${phrase}` : phrase;
    if (next.length > PROMPT_CHARS) break;
    out = next;
  }
  return out;
}

const retryable = (status: number): boolean => status === 408 || status === 429 || status >= 500;

export class HttpTranscriber implements Transcriber {
  readonly name = 'http';
  readonly #url: string;

  constructor(private readonly opts: HttpSttOptions) {
    this.#url = apiUrl(opts.baseUrl, 'audio/transcriptions');
  }

  async transcribe(req: TranscribeRequest): Promise<TranscribeResult> {
    // Decoding first checks the audio (corrupt, empty, too long) before anything leaves the server.
    const speech = await decodeSpeech(req.audio, { maxSeconds: this.opts.maxSeconds ?? 30 });
    if (!speech.ok) return { ok: false, message: speech.message };
    const file = req.audio.format === 'pcm16'
      ? { bytes: encodeWav(speech.samples, speech.sampleRate), name: 'speech.wav', type: 'audio/wav' }
      : { bytes: req.audio.bytes, name: `speech.${req.audio.format}`, type: req.audio.format === 'mp3' ? 'audio/mpeg' : 'audio/wav' };
    const form = (): FormData => {
      const f = new FormData();
      f.append('file', new Blob([file.bytes.slice()], { type: file.type }), file.name);
      f.append('model', this.opts.model);
      f.append('language', LANG_CODE[req.language]);
      f.append('response_format', 'json');
      const prompt = vocabularyPrompt(req.vocabulary);
      if (prompt) f.append('prompt', prompt);
      return f;
    };
    const doFetch = this.opts.fetch ?? fetch;
    const started = performance.now();
    let last = 'Speech recognition is unavailable right now: try again, or type your answer.';
    for (let attempt = 1; attempt <= 2; attempt++) {
      try {
        const res = await doFetch(this.#url, {
          method: 'POST',
          body: form(),
          headers: this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {},
          signal: AbortSignal.timeout(this.opts.timeoutMs ?? 15_000),
        });
        if (res.ok) {
          const body = (await res.json().catch(() => null)) as { text?: unknown } | null;
          // A provider's stray NUL or lone surrogate would fail in the store: dropped (U+FFFD), not the player's turn.
          const text = typeof body?.text === 'string' ? storableText(body.text).trim() : null;
          this.opts.log?.debug({ stt: 'http', ms: Math.round(performance.now() - started), attempt, seconds: speech.seconds }, 'transcribed');
          if (text === null) return { ok: false, message: 'The speech-to-text provider sent an answer without text.' };
          if (text === '') return { ok: false, message: NOT_CAUGHT_TEXT, notCaught: true };
          return { ok: true, text, recogniser: `http:${this.opts.model}` };
        }
        await res.body?.cancel().catch(() => undefined);
        if (res.status === 401 || res.status === 403) {
          return { ok: false, message: `The speech-to-text provider refused the request (HTTP ${res.status}): check STT_API_KEY.` };
        }
        last = `The speech-to-text provider answered HTTP ${res.status}: try again, or type your answer.`;
        this.opts.log?.warn({ stt: 'http', status: res.status, attempt }, 'speech-to-text request failed');
        if (!retryable(res.status)) break;
      } catch (err) {
        const timeout = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
        last = timeout
          ? 'The speech-to-text provider took too long to answer: try again, or type your answer.'
          : 'The speech-to-text provider could not be reached: try again, or type your answer.';
        this.opts.log?.warn({ stt: 'http', attempt, error: timeout ? 'timeout' : err instanceof Error ? err.message : 'error' }, 'speech-to-text request failed');
      }
    }
    return { ok: false, message: last };
  }
}
