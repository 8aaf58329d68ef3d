// Brain configuration: which dialogue brain answers turns (scripted or an OpenAI-compatible LLM), parsed once from the
// environment by zod. The default (auto, nothing set) is the scripted brain, which needs nothing installed.
import { z } from 'zod';
import { ConfigError } from '../config.js';

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');
const optionalString = z.string().optional().transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

export const BrainConfigSchema = z.object({
  /** auto: the LLM when LLM_BASE_URL and LLM_MODEL are set, else the scripted brain. */
  BRAIN: z.enum(['auto', 'scripted', 'llm']).default('auto'),
  /** An OpenAI-compatible API base: https://api.openai.com/v1, http://localhost:11434/v1 (Ollama)... */
  LLM_BASE_URL: optionalString.pipe(z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional()),
  /** Bearer key; local servers usually need none. Never logged. */
  LLM_API_KEY: optionalString,
  LLM_MODEL: optionalString,
  /** Per attempt; a turn waits at most (LLM_MAX_RETRIES + 1) x this before the scripted brain answers. */
  LLM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(4000),
  /** Extra attempts after a failed one (timeout, HTTP error, invalid or off-canon reply). */
  LLM_MAX_RETRIES: z.coerce.number().int().min(0).max(5).default(1),
  /** Sampling temperature; sent only when set (some models refuse it). */
  LLM_TEMPERATURE: z.coerce.number().min(0).max(2).optional(),
  /** Serve identical situations from memory (the turn is then free: cache_hit). */
  LLM_CACHE: bool.default(false),
  LLM_CACHE_SIZE: z.coerce.number().int().min(1).max(1_000_000).default(1000),
});
export type BrainConfig = z.infer<typeof BrainConfigSchema>;

/** Parses the brain variables; throws a ConfigError naming each bad one. */
export function loadBrainConfig(env: Readonly<Record<string, string | undefined>>): BrainConfig {
  const input: Record<string, string> = {};
  for (const key of Object.keys(BrainConfigSchema.shape)) {
    const v = env[key];
    if (v !== undefined && v !== '') input[key] = v;
  }
  const r = BrainConfigSchema.safeParse(input);
  if (!r.success) {
    throw new ConfigError(`Invalid brain configuration:\n${r.error.issues.map((i) => `  ${i.path.join('.') || '(config)'}: ${i.message}`).join('\n')}`);
  }
  return r.data;
}

export type LlmSettings = {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
  maxRetries: number;
  temperature?: number;
  cache: boolean;
  cacheSize: number;
};

/** The brain to run: null for the scripted brain, else the LLM settings. BRAIN=llm without its settings is an error. */
export function llmSettings(c: BrainConfig): LlmSettings | null {
  if (c.BRAIN === 'scripted') return null;
  if (!c.LLM_BASE_URL || !c.LLM_MODEL) {
    if (c.BRAIN === 'auto') return null;
    const missing = [!c.LLM_BASE_URL ? 'LLM_BASE_URL' : '', !c.LLM_MODEL ? 'LLM_MODEL' : ''].filter(Boolean).join(' and ');
    throw new ConfigError(`Invalid brain configuration:\n  BRAIN: BRAIN=llm needs ${missing} (e.g. LLM_BASE_URL=http://localhost:11434/v1 LLM_MODEL=llama3.1)`);
  }
  return {
    baseUrl: c.LLM_BASE_URL, model: c.LLM_MODEL, timeoutMs: c.LLM_TIMEOUT_MS, maxRetries: c.LLM_MAX_RETRIES,
    cache: c.LLM_CACHE, cacheSize: c.LLM_CACHE_SIZE,
    ...(c.LLM_API_KEY ? { apiKey: c.LLM_API_KEY } : {}),
    ...(c.LLM_TEMPERATURE !== undefined ? { temperature: c.LLM_TEMPERATURE } : {}),
  };
}
