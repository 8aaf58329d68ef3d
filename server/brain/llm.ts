// The LLM brain: an OpenAI-compatible chat model decides each turn, with the scripted brain as the safety net.
//   prompt   the latest prompt of the moment's type and language (prompt_management.prompts; built-in default when
//            none), filled with the story canon around the moment; openings stay authored (scripted, no call).
//   reply    structured output (response_format json_schema, strict, derived from the Decision schema); a server
//            that refuses json_schema gets json_object with the schema in the prompt, remembered per base URL.
//   checks   zod (Decision), then the canon check (ids from the given lists, no invented names: canon.ts); facts
//            the moment does not teach are dropped.
//   failure  timeout, HTTP error, invalid JSON, schema mismatch or canon violation: up to LLM_MAX_RETRIES more
//            attempts, then the scripted brain decides the turn and `fallback` says why.
// Every call is one prompt_logs row (prompt, response, model, latency, tokens, outcome, refusal reason), never the key.
import type { Decision } from '../../engine/brain/decision.js';
import { decideScripted, type BrainInput } from '../../engine/brain/scripted.js';
import type { MomentType, PlayLanguage } from '../../engine/schema/enums.js';
import type { Logger } from '../log.js';
import type { Brain } from '../game/brain.js';
import type { PromptLogInput, PromptOutcome } from '../store/prompts.js';
import { cacheKey, LruCache } from './cache.js';
import { canonViolation } from './canon.js';
import type { LlmSettings } from './config.js';
import { fillTemplate, turnContext, type TurnContext } from './context.js';
import { defaultPrompt } from './default-prompts.js';
import { chatCompletion, chatUrl, type ChatMessage, type ChatResult } from './openai.js';
import { decisionJsonSchema, parseDecision } from './schema.js';

/** The prompt fields the brain uses (a prompt_management.prompts row, or a built-in default with id null). */
export type BrainPrompt = { id: string | null; system_prompt: string; user_template: string; model: string | null; version: number };

/** Where prompts come from and where calls are logged (PromptRepo, or a wrapper pinning one prompt for evaluations). */
export interface PromptSource {
  latestPrompt(momentType: MomentType, language: PlayLanguage): Promise<BrainPrompt | null>;
  logCall(row: PromptLogInput): Promise<void>;
}

export type FallbackReason = 'timeout' | 'http_error' | 'network_error' | 'invalid_json' | 'schema_mismatch' | 'canon_violation' | 'no_moment';

export type LlmBrainDeps = {
  settings: LlmSettings;
  prompts: PromptSource;
  log?: Logger;
  fetch?: typeof fetch;
  /** How long a prompt read from the database is reused before reading again. */
  promptTtlMs?: number;
};

type Attempt =
  | { ok: true; decision: Decision }
  | { ok: false; reason: Exclude<FallbackReason, 'no_moment'> };

/** Response formats per base URL: a server that refused json_schema once is asked for json_object from then on. */
const formats = new Map<string, 'json_schema' | 'json_object'>();

export class LlmBrain implements Brain {
  readonly name = 'llm';
  readonly #s: LlmSettings;
  readonly #deps: LlmBrainDeps;
  readonly #url: string;
  readonly #cache: LruCache<Decision> | null;
  readonly #prompts = new Map<string, { prompt: BrainPrompt; at: number }>();

  constructor(deps: LlmBrainDeps) {
    this.#deps = deps;
    this.#s = deps.settings;
    this.#url = chatUrl(deps.settings.baseUrl);
    this.#cache = deps.settings.cache ? new LruCache<Decision>(deps.settings.cacheSize) : null;
  }

  /** The response format this brain's server is asked for now. */
  get responseFormat(): 'json_schema' | 'json_object' {
    return formats.get(this.#url) ?? 'json_schema';
  }

  async decide(input: BrainInput): Promise<{ decision: Decision; brain: string; fallback?: string }> {
    // Openings are authored lines: the scripted brain speaks them, with no call and no cost.
    if (input.is_starting_dialogue) return { decision: decideScripted(input), brain: 'scripted' };
    const ctx = turnContext(input);
    if (!ctx) return { decision: decideScripted(input), brain: 'scripted', fallback: 'no_moment' };
    const prompt = await this.#prompt(ctx.moment.type, ctx.language);
    const model = prompt.model ?? this.#s.model;
    const key = this.#cache ? cacheKey(ctx, input.transcription, { id: prompt.id, version: prompt.version, model }) : '';
    const hit = this.#cache?.get(key);
    if (hit) {
      // A cached decision is checked again against this state: a stale one is dropped and the model asked.
      if (canonViolation(hit, ctx, input.transcription) === null) return { decision: { ...hit, cache_hit: true }, brain: this.name };
      this.#cache?.delete(key);
    }
    const messages: ChatMessage[] = [
      { role: 'system', content: fillTemplate(prompt.system_prompt, ctx.vars) },
      { role: 'user', content: fillTemplate(prompt.user_template || '{{player_line}}', ctx.vars) },
    ];
    let reason: FallbackReason = 'http_error';
    for (let attempt = 0; attempt <= this.#s.maxRetries; attempt++) {
      const r = await this.#attempt(messages, prompt, model, ctx, input);
      if (r.ok) {
        this.#cache?.set(key, r.decision);
        return { decision: r.decision, brain: this.name };
      }
      reason = r.reason;
    }
    this.#deps.log?.warn({ brain: this.name, fallback: reason, attempts: this.#s.maxRetries + 1, moment_type: ctx.moment.type }, 'llm brain fell back to the scripted brain');
    return { decision: decideScripted(input), brain: 'scripted', fallback: reason };
  }

  async #prompt(type: MomentType, language: PlayLanguage): Promise<BrainPrompt> {
    const k = `${type}|${language}`;
    const now = Date.now();
    const known = this.#prompts.get(k);
    if (known && now - known.at < (this.#deps.promptTtlMs ?? 30_000)) return known.prompt;
    let prompt: BrainPrompt | null = null;
    try {
      prompt = await this.#deps.prompts.latestPrompt(type, language);
    } catch (err) {
      this.#deps.log?.error({ err }, 'cannot read prompts: using the built-in prompt');
    }
    if (!prompt) {
      const d = defaultPrompt(type, language);
      prompt = { id: null, system_prompt: d.system_prompt, user_template: d.user_template, model: null, version: 1 };
    }
    this.#prompts.set(k, { prompt, at: now });
    return prompt;
  }

  /** One attempt; a server refusing json_schema is asked again at once with json_object (both calls logged). */
  async #attempt(messages: ChatMessage[], prompt: BrainPrompt, model: string, ctx: TurnContext, input: BrainInput): Promise<Attempt> {
    for (;;) {
      const format = this.responseFormat;
      const sent = format === 'json_schema' ? messages : withSchemaInstructions(messages);
      const body: Record<string, unknown> = {
        model,
        messages: sent,
        response_format: format === 'json_schema'
          ? { type: 'json_schema', json_schema: { name: 'decision', strict: true, schema: decisionJsonSchema() } }
          : { type: 'json_object' },
        ...(this.#s.temperature !== undefined ? { temperature: this.#s.temperature } : {}),
      };
      const res = await chatCompletion({ url: this.#url, body, timeoutMs: this.#s.timeoutMs, ...(this.#s.apiKey ? { apiKey: this.#s.apiKey } : {}), ...(this.#deps.fetch ? { fetch: this.#deps.fetch } : {}) });
      const judged = this.#judge(res, ctx, input);
      await this.#logCall({
        prompt_id: prompt.id, player_story_id: input.state.run?.id ?? null, prompt: JSON.stringify(sent), model,
        response: res.ok ? res.text : res.body ?? res.detail, latency_ms: res.ms,
        prompt_tokens: res.ok ? res.usage.prompt_tokens : null, completion_tokens: res.ok ? res.usage.completion_tokens : null,
        outcome: judged.outcome, fallback_reason: judged.detail,
      });
      if (!res.ok && res.kind === 'format_rejected' && format === 'json_schema') {
        formats.set(this.#url, 'json_object');
        this.#deps.log?.info({ brain: this.name, status: res.status }, 'the LLM server refused json_schema: using json_object');
        continue;
      }
      return judged.result;
    }
  }

  #judge(res: ChatResult, ctx: TurnContext, input: BrainInput): { result: Attempt; outcome: PromptOutcome; detail: string | null } {
    if (!res.ok) {
      if (res.kind === 'timeout') return { result: { ok: false, reason: 'timeout' }, outcome: 'timeout', detail: `timeout: ${res.detail}` };
      if (res.kind === 'format_rejected') return { result: { ok: false, reason: 'http_error' }, outcome: 'error', detail: `json_schema refused (${res.detail}): switching to json_object` };
      if (res.kind === 'bad_response') return { result: { ok: false, reason: 'invalid_json' }, outcome: 'invalid', detail: `invalid_json: ${res.detail}` };
      const reason = res.kind === 'network' ? 'network_error' : 'http_error';
      return { result: { ok: false, reason }, outcome: 'error', detail: `${reason}: ${res.detail}` };
    }
    const parsed = parseDecision(res.text);
    if (!parsed.ok) return { result: { ok: false, reason: parsed.reason }, outcome: 'invalid', detail: `${parsed.reason}: ${parsed.detail}` };
    const violation = canonViolation(parsed.decision, ctx, input.transcription);
    if (violation) return { result: { ok: false, reason: 'canon_violation' }, outcome: 'canon_violation', detail: `canon_violation: ${violation}` };
    // Facts are the story's keys, not prose: ones the moment does not teach are dropped rather than refused.
    const decision = { ...parsed.decision, facts: parsed.decision.facts.filter((f) => ctx.allowed.facts.has(f)) };
    return { result: { ok: true, decision }, outcome: 'ok', detail: null };
  }

  /** Logging never breaks a turn; the key is scrubbed from anything stored (a server may echo headers back). */
  async #logCall(row: PromptLogInput): Promise<void> {
    const key = this.#s.apiKey;
    const scrub = (t: string | null): string | null => (t && key ? t.replaceAll(key, '[redacted]') : t);
    try {
      await this.#deps.prompts.logCall({ ...row, prompt: scrub(row.prompt) ?? '', response: scrub(row.response), fallback_reason: scrub(row.fallback_reason) });
    } catch (err) {
      this.#deps.log?.error({ err }, 'cannot store the prompt log');
    }
  }
}

/** json_object mode has no schema parameter: the schema goes into the system prompt. */
function withSchemaInstructions(messages: ChatMessage[]): ChatMessage[] {
  const schema = JSON.stringify(decisionJsonSchema());
  return messages.map((m, i) => (i === 0
    ? { ...m, content: `${m.content}\n\nAnswer with one JSON object that fits this JSON Schema exactly (use null for fields that do not apply):\n${schema}` }
    : m));
}
