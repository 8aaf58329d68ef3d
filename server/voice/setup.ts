// Picks the voice providers from the configuration and says what is active, what is missing and how to enable it
// (for start-up logs, /health and `looptale doctor`).
//   STT auto: HTTP when STT_BASE_URL is set; else pocketsphinx for English when installed; French then needs HTTP.
//   TTS auto: HTTP when TTS_BASE_URL is set; else eSpeak (from npm, always there).
import type { PlayLanguage } from '../../engine/schema/enums.js';
import type { Logger } from '../log.js';
import { parseVoiceConfig, type VoiceConfig } from './config.js';
import { EspeakSynthesizer } from './espeak.js';
import { EspeakPool } from './espeak-pool.js';
import { HttpTranscriber } from './http-stt.js';
import { HttpSynthesizer } from './http-tts.js';
import { warmUpMp3Decoder } from './mp3.js';
import { isPocketsphinxAvailable, PocketsphinxTranscriber } from './pocketsphinx.js';
import type { Synthesizer } from './synthesizer.js';
import { NoTranscriber, type TranscribeRequest, type TranscribeResult, type Transcriber } from './transcriber.js';
import { routingHearing, transcriberHearing, understandingHearing, type Hearing } from './hearing.js';
import { SpeechUnderstanding } from './understanding.js';
import { BUILD_COMMAND, nativeAsrBinary } from './native-asr.js';
import type { HearingPluginStatus } from './plugins.js';

export const FRENCH_NEEDS_HTTP =
  "French speech recognition needs a speech-to-text provider: set STT_BASE_URL (see looptale doctor). Typed answers and the app's own transcription still work.";
export const ENGLISH_NEEDS_STT =
  "This server cannot recognise English speech: install pocketsphinx (apt-get install pocketsphinx pocketsphinx-en-us) or set STT_BASE_URL (see looptale doctor). Typed answers and the app's own transcription still work.";

export type ProviderStatus = {
  provider: string;
  active: boolean;
  /** Per language, the provider that serves it ('none' when none does). */
  languages: Record<PlayLanguage, string>;
  missing: string[];
  howToEnable: string;
  /** Offline English: which decoder runs (persistent looptale-asr processes, or a process per decode and why). */
  engine?: string;
  /** Speech to text: the Hearing plugins this configuration turned on, with the languages each hears. */
  plugins?: HearingPluginStatus[];
};
export type VoiceDescription = { stt: ProviderStatus; tts: ProviderStatus };

export type Voice = {
  transcriber: Transcriber;
  /**
   * What the turn pipeline hears with: offline English through SpeechUnderstanding (a model of the stage, the brain's
   * check, verification), other recognisers through their words. `gate`: words that decide nothing (scripted brain)
   * are a miss.
   */
  hearing(opts: { gate: boolean }): Hearing;
  /** null: no speech is sent (TTS_PROVIDER=none). */
  synthesizer: Synthesizer | null;
  config: VoiceConfig;
  describe(): VoiceDescription;
  close(): Promise<void>;
};

/** Sends each language to its recogniser; a language without one gets a clear message instead. */
export function routingTranscriber(byLanguage: Partial<Record<PlayLanguage, Transcriber>>, messages: Partial<Record<PlayLanguage, string>> = {}): Transcriber {
  const names = [...new Set(Object.values(byLanguage).map((t) => t.name))];
  return {
    name: names.length ? names.join('+') : 'none',
    transcribe(req: TranscribeRequest): Promise<TranscribeResult> {
      const t = byLanguage[req.language];
      if (t) return t.transcribe(req);
      const message = messages[req.language] ?? (req.language === 'french' ? FRENCH_NEEDS_HTTP : ENGLISH_NEEDS_STT);
      return Promise.resolve({ ok: false, message });
    },
  };
}

/** Builds the providers. Never throws: a bad setting falls back to no provider and is reported by describe(). */
export async function createVoice(env: Readonly<Record<string, string | undefined>>, log: Logger): Promise<Voice> {
  const parsed = parseVoiceConfig(env);
  const problems = parsed.ok ? [] : parsed.problems;
  if (!parsed.ok) log.error({ problems }, 'voice settings ignored');
  const config = parsed.ok ? parsed.config : parsed.fallback;
  const closers: (() => Promise<void>)[] = [];

  // Speech to text.
  const sttMissing: string[] = [...problems];
  let http: HttpTranscriber | null = null;
  let sphinx: PocketsphinxTranscriber | null = null;
  let understanding: SpeechUnderstanding | null = null;
  let sttEngine: string | undefined;
  const wantHttp = config.STT_PROVIDER === 'http' || (config.STT_PROVIDER === 'auto' && config.STT_BASE_URL);
  if (wantHttp) {
    if (config.STT_BASE_URL) {
      http = new HttpTranscriber({
        baseUrl: config.STT_BASE_URL, model: config.STT_MODEL, timeoutMs: config.STT_TIMEOUT_MS, maxSeconds: config.VOICE_MAX_AUDIO_SECONDS,
        log: log.child({ component: 'stt' }), ...(config.STT_API_KEY ? { apiKey: config.STT_API_KEY } : {}),
      });
    } else sttMissing.push('STT_BASE_URL');
  }
  if (config.STT_PROVIDER === 'pocketsphinx' || (config.STT_PROVIDER === 'auto' && !http)) {
    const available = await isPocketsphinxAvailable(config.POCKETSPHINX_MODEL_DIR);
    if (available.ok) {
      const t = new PocketsphinxTranscriber({
        modelDir: config.POCKETSPHINX_MODEL_DIR, poolSize: config.POCKETSPHINX_POOL_SIZE, timeoutMs: config.POCKETSPHINX_TIMEOUT_MS, mode: config.POCKETSPHINX_MODE,
        maxSeconds: config.VOICE_MAX_AUDIO_SECONDS, log: log.child({ component: 'stt' }),
      });
      sphinx = t;
      closers.push(() => t.close());
      const common = { modelDir: config.POCKETSPHINX_MODEL_DIR, timeoutMs: config.POCKETSPHINX_TIMEOUT_MS, maxSeconds: config.VOICE_MAX_AUDIO_SECONDS, log: log.child({ component: 'stt' }) };
      let u: SpeechUnderstanding | null = null;
      if (config.POCKETSPHINX_ENGINE !== 'continuous') {
        // Persistent decoders, started now (while the server's memory is small: each start forks it).
        const bin = await nativeAsrBinary();
        if (bin.ok) {
          const native = new SpeechUnderstanding({ ...common, native: { binary: bin.path, size: config.POCKETSPHINX_DECODERS } });
          if (await native.native?.ready()) {
            u = native;
            sttEngine = `looptale-asr: ${config.POCKETSPHINX_DECODERS} persistent pocketsphinx decoder(s)`;
          } else {
            await native.close();
            sttEngine = `pocketsphinx_continuous, a process per decode (slower): ${bin.path} could not load the model from ${config.POCKETSPHINX_MODEL_DIR}`;
          }
        } else sttEngine = `pocketsphinx_continuous, a process per decode (slower): ${bin.reason}`;
        if (!u) {
          sttMissing.push(`looptale-asr (${BUILD_COMMAND}): persistent decoders`);
          log.warn({ engine: sttEngine }, 'English speech is decoded without the persistent decoders');
        }
      }
      u ??= new SpeechUnderstanding({ ...common, concurrency: 2 * config.POCKETSPHINX_POOL_SIZE, standby: config.POCKETSPHINX_STANDBY });
      if (u.native === null && config.POCKETSPHINX_ENGINE === 'continuous') sttEngine = 'pocketsphinx_continuous, a process per decode (POCKETSPHINX_ENGINE=continuous)';
      understanding = u;
      const made = u;
      closers.push(() => made.close());
    } else sttMissing.push(...available.missing);
  }
  const english: Transcriber | undefined = http ?? sphinx ?? undefined;
  const french: Transcriber | undefined = http ?? undefined;
  const transcriber = english || french ? routingTranscriber({ ...(english ? { english } : {}), ...(french ? { french } : {}) }) : new NoTranscriber();
  const sttProvider = http ? 'http' : sphinx ? 'pocketsphinx' : 'none';
  // Player MP3 is decoded here: compile the decoder now rather than on the first turn.
  if (sttProvider !== 'none') warmUpMp3Decoder().catch((err: unknown) => log.warn({ err }, 'MP3 warm-up failed'));
  if (!french && !sttMissing.includes('STT_BASE_URL')) sttMissing.push('STT_BASE_URL (French)');
  const stt: ProviderStatus = {
    provider: sttProvider,
    active: sttProvider !== 'none',
    languages: { english: english?.name ?? 'none', french: french?.name ?? 'none' },
    missing: sttMissing,
    ...(sttEngine && !http ? { engine: sttEngine } : {}),
    plugins: [
      ...(http ? [{ id: 'http' as const, languages: ['english', 'french'] as PlayLanguage[] }] : []),
      ...(understanding && !http ? [{ id: 'pocketsphinx' as const, languages: ['english'] as PlayLanguage[] }] : []),
      { id: 'app', languages: ['english', 'french'] },
    ],
    howToEnable: http
      ? 'Active for English and French through the HTTP provider.'
      : 'For both languages set STT_BASE_URL (an OpenAI-compatible API, e.g. https://api.openai.com/v1), STT_API_KEY and STT_MODEL. '
        + (sphinx ? `English is recognised offline by pocketsphinx${understanding?.native ? '' : ` (faster with persistent decoders: apt-get install gcc pkg-config libpocketsphinx-dev libsphinxbase-dev, then ${BUILD_COMMAND})`}.` : 'For English offline: apt-get install pocketsphinx pocketsphinx-en-us.'),
  };

  // Text to speech.
  let synthesizer: Synthesizer | null = null;
  const ttsMissing: string[] = [...problems];
  const wantHttpTts = config.TTS_PROVIDER === 'http' || (config.TTS_PROVIDER === 'auto' && config.TTS_BASE_URL);
  if (wantHttpTts) {
    if (config.TTS_BASE_URL) {
      synthesizer = new HttpSynthesizer({
        baseUrl: config.TTS_BASE_URL, model: config.TTS_MODEL, voices: config.TTS_VOICES, timeoutMs: config.TTS_TIMEOUT_MS,
        log: log.child({ component: 'tts' }), ...(config.TTS_API_KEY ? { apiKey: config.TTS_API_KEY } : {}),
        ...(config.TTS_VOICE_MAP ? { voiceMap: config.TTS_VOICE_MAP } : {}),
      });
    } else ttsMissing.push('TTS_BASE_URL');
  }
  if (!synthesizer && config.TTS_PROVIDER !== 'none') {
    const espeak = new EspeakPool(Array.from({ length: config.TTS_WORKERS }, () => new EspeakSynthesizer({ kbps: config.TTS_MP3_KBPS, lazy: true, idleStopMs: config.TTS_IDLE_STOP_S * 1000, log: log.child({ component: 'tts' }) })));
    synthesizer = espeak;
    closers.push(() => espeak.close());
  }
  const ttsProvider = synthesizer?.name ?? 'none';
  const tts: ProviderStatus = {
    provider: ttsProvider,
    active: synthesizer !== null,
    languages: { english: ttsProvider, french: ttsProvider },
    missing: ttsMissing,
    howToEnable: synthesizer
      ? ttsProvider === 'espeak' ? 'Offline eSpeak voices are active; for other voices set TTS_BASE_URL, TTS_API_KEY and TTS_MODEL.' : 'Active through the HTTP provider.'
      : 'Set TTS_PROVIDER=auto (eSpeak, offline) or TTS_BASE_URL for an OpenAI-compatible provider.',
  };

  log.info({ stt: { provider: stt.provider, languages: stt.languages, ...(stt.engine ? { engine: stt.engine } : {}) }, tts: { provider: tts.provider } }, 'voice providers');
  const messages = { english: ENGLISH_NEEDS_STT, french: FRENCH_NEEDS_HTTP };
  return {
    transcriber,
    hearing: ({ gate }) => {
      const en: Hearing | undefined = http ? transcriberHearing(http, { gate }) : understanding ? understandingHearing(understanding) : undefined;
      const fr: Hearing | undefined = http ? transcriberHearing(http, { gate }) : undefined;
      return routingHearing({ ...(en ? { english: en } : {}), ...(fr ? { french: fr } : {}) }, messages);
    },
    synthesizer,
    config,
    describe: () => ({ stt: structuredClone(stt), tts: structuredClone(tts) }),
    async close() {
      await Promise.all(closers.map((c) => c()));
    },
  };
}
