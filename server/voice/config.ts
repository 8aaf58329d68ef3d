// Voice configuration: speech-to-text and text-to-speech providers, parsed once from the environment by zod. The
// defaults run offline with nothing beyond `npm ci` (eSpeak for speech) plus, when installed, Debian's pocketsphinx
// (English recognition).
import { availableParallelism } from 'node:os';
import { z } from 'zod';

const list = z.string().transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean));
/** "character-id=voice,other-id=voice" */
const voiceMap = z.string().transform((v, ctx) => {
  const map: Record<string, string> = {};
  for (const pair of v.split(',').map((s) => s.trim()).filter(Boolean)) {
    const eq = pair.indexOf('=');
    if (eq <= 0 || eq === pair.length - 1) {
      ctx.addIssue({ code: 'custom', message: `'${pair}' is not of the form character-id=voice` });
      return z.NEVER;
    }
    map[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
  }
  return map;
});
const optionalString = z.string().optional().transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));
const optionalUrl = optionalString.pipe(z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional());

export const VoiceConfigSchema = z.object({
  /** auto: HTTP when STT_BASE_URL is set, else pocketsphinx for English when installed, else none. */
  STT_PROVIDER: z.enum(['auto', 'pocketsphinx', 'http', 'none']).default('auto'),
  /** An OpenAI-compatible API base, e.g. https://api.openai.com/v1 (POST {base}/audio/transcriptions). */
  STT_BASE_URL: optionalUrl,
  STT_API_KEY: optionalString,
  STT_MODEL: z.string().min(1).default('whisper-1'),
  STT_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(15_000),
  /** auto: HTTP when TTS_BASE_URL is set, else eSpeak (always available). */
  TTS_PROVIDER: z.enum(['auto', 'espeak', 'http', 'none']).default('auto'),
  /** An OpenAI-compatible API base (POST {base}/audio/speech). */
  TTS_BASE_URL: optionalUrl,
  TTS_API_KEY: optionalString,
  TTS_MODEL: z.string().min(1).default('tts-1'),
  /** Voices a character without a mapped voice is given one of (a stable pick from its id). */
  TTS_VOICES: list.default(['alloy', 'echo', 'fable', 'onyx', 'nova', 'shimmer']),
  /** Fixed voices: "character-id=voice,...". */
  TTS_VOICE_MAP: voiceMap.optional(),
  TTS_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(20_000),
  /** MP3 bitrate of eSpeak replies. */
  TTS_MP3_KBPS: z.coerce.number().int().refine((v) => [32, 40, 48, 56, 64, 80, 96, 112, 128].includes(v), 'must be one of 32, 40, 48, 56, 64, 80, 96, 112, 128').default(64),
  /** eSpeak worker threads (each ~50 MB); a line goes to the least busy. Default: the CPU count, at most 4. */
  TTS_WORKERS: z.coerce.number().int().min(1).max(16).default(() => Math.min(4, Math.max(1, availableParallelism()))),
  /** An eSpeak worker that has spoken nothing for this long stops (its memory goes back); the next line starts it. 0: never. */
  TTS_IDLE_STOP_S: z.coerce.number().int().min(0).max(86_400).default(300),
  /** Longer player audio is refused with a clear message. */
  VOICE_MAX_AUDIO_SECONDS: z.coerce.number().int().min(1).max(600).default(30),
  /** Days the words of what players said that was not caught are kept for authors (0: never stored; rows still go
   *  after a day). Never the audio. */
  VOICE_MISS_RETENTION_DAYS: z.coerce.number().int().min(0).max(3650).default(30),
  /** Recogniser processes kept running at most (about 15 MB each). */
  POCKETSPHINX_POOL_SIZE: z.coerce.number().int().min(1).max(32).default(2),
  /** hybrid (default): long-lived processes, and a fresh one per request for what they did not catch; per-request;
   *  long-lived. See server/voice/pocketsphinx.ts. */
  POCKETSPHINX_MODE: z.enum(['hybrid', 'per-request', 'long-lived']).default('hybrid'),
  /** English understanding: pocketsphinx processes started ahead of the audio (each ~15 MB while it waits; 0: none,
   *  each decode starts its own). See server/voice/decode.ts StandbyDecoders. */
  POCKETSPHINX_STANDBY: z.coerce.number().int().min(0).max(16).default(3),
  /** English understanding's decoder: native (looptale-asr, persistent processes, `npm run build:asr`), continuous (a
   *  pocketsphinx_continuous process per decode), auto (native when built, else continuous, said at start-up). */
  POCKETSPHINX_ENGINE: z.enum(['auto', 'native', 'continuous']).default('auto'),
  /** Native engine: persistent decoder processes (each ~25-40 MB); the decodes beyond wait, by priority. Default: the
   *  CPU count. */
  POCKETSPHINX_DECODERS: z.coerce.number().int().min(1).max(32).default(() => Math.max(1, availableParallelism())),
  POCKETSPHINX_TIMEOUT_MS: z.coerce.number().int().min(200).max(60_000).default(5000),
  POCKETSPHINX_MODEL_DIR: z.string().min(1).default('/usr/share/pocketsphinx/model/en-us'),
});
export type VoiceConfig = z.infer<typeof VoiceConfigSchema>;

export type VoiceConfigResult = { ok: true; config: VoiceConfig } | { ok: false; message: string; problems: string[]; fallback: VoiceConfig };

/** Parses the voice variables; bad values come back as messages naming them, with a configuration without them. */
export function parseVoiceConfig(env: Readonly<Record<string, string | undefined>>): VoiceConfigResult {
  const problems: string[] = [];
  const rest: Record<string, string | undefined> = { ...env };
  for (let i = 0; i < 32; i++) {
    const r = VoiceConfigSchema.safeParse(rest);
    if (r.success) {
      if (problems.length === 0) return { ok: true, config: r.data };
      return { ok: false, message: problems[0] ?? '', problems, fallback: r.data };
    }
    for (const issue of r.error.issues) {
      const key = String(issue.path[0] ?? '');
      problems.push(`Invalid voice setting ${key}: ${issue.message}`);
      delete rest[key];
    }
  }
  return { ok: false, message: problems[0] ?? 'Invalid voice settings', problems, fallback: VoiceConfigSchema.parse({}) };
}
