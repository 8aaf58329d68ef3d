// Picks the dialogue brain from the configuration: the scripted brain by default, the LLM brain when BRAIN=llm, or
// BRAIN=auto (default) with LLM_BASE_URL and LLM_MODEL set. The LLM brain's default prompts are seeded on first start.
import type { Queryable } from '../db/db.js';
import type { Logger } from '../log.js';
import { ScriptedBrain, type Brain } from '../game/brain.js';
import { PromptRepo } from '../store/prompts.js';
import { llmSettings, loadBrainConfig } from './config.js';
import { LlmBrain } from './llm.js';

/** Throws a ConfigError (naming the variable) on bad settings. */
export async function createBrain(env: Readonly<Record<string, string | undefined>>, deps: { db: Queryable; log: Logger }): Promise<Brain> {
  const settings = llmSettings(loadBrainConfig(env));
  if (!settings) {
    deps.log.info({ brain: 'scripted' }, 'dialogue brain');
    return new ScriptedBrain();
  }
  const prompts = new PromptRepo(deps.db);
  const seeded = await prompts.seedDefaults();
  // The base URL may hold credentials in odd setups: log its origin only, never the key.
  deps.log.info({
    brain: 'llm', llm: { origin: new URL(settings.baseUrl).origin, model: settings.model, timeout_ms: settings.timeoutMs, retries: settings.maxRetries, cache: settings.cache, key: Boolean(settings.apiKey) }, prompts_seeded: seeded,
  }, 'dialogue brain');
  return new LlmBrain({ settings, prompts, log: deps.log.child({ component: 'brain' }) });
}
