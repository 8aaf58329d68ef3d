// The prompt_management schema: the prompts the LLM brain uses (latest per moment type and language; defaults seeded
// when the table is empty), a log row per LLM call, and evaluations (cases) with their runs (pass rates).
import { z } from 'zod';
import { Language, MomentType, PlayLanguage } from '../../engine/schema/enums.js';
import type { Queryable } from '../db/db.js';
import { defaultPrompts } from '../brain/default-prompts.js';
import { isUuid, json, parseRows } from './rows.js';

export const PromptRow = z.object({
  id: z.string(),
  name: z.string(),
  moment_type: MomentType.nullable(),
  language: Language.nullable(),
  system_prompt: z.string(),
  user_template: z.string(),
  model: z.string().nullable(),
  version: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type PromptRow = z.infer<typeof PromptRow>;

export const PROMPT_OUTCOMES = ['ok', 'invalid', 'timeout', 'error', 'canon_violation'] as const;
export type PromptOutcome = (typeof PROMPT_OUTCOMES)[number];

export type PromptLogInput = {
  prompt_id: string | null;
  player_story_id: string | null;
  /** The messages sent (never the API key). */
  prompt: string;
  /** The model's text, or the HTTP error body / error message. */
  response: string | null;
  model: string | null;
  latency_ms: number;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  outcome: PromptOutcome;
  /** Why the answer was refused (null when it was used). */
  fallback_reason: string | null;
};

export const PromptLogRow = z.object({
  id: z.string(),
  prompt_id: z.string().nullable(),
  player_story_id: z.string().nullable(),
  prompt: z.string(),
  response: z.string().nullable(),
  model: z.string().nullable(),
  latency_ms: z.number().int().nullable(),
  prompt_tokens: z.number().int().nullable(),
  completion_tokens: z.number().int().nullable(),
  outcome: z.enum(PROMPT_OUTCOMES).nullable(),
  fallback_reason: z.string().nullable(),
  created_at: z.string(),
});
export type PromptLogRow = z.infer<typeof PromptLogRow>;

/** One evaluation case: a player line said at a moment, and what the decision should say. */
export const EvalCase = z.object({
  moment_type: MomentType,
  language: PlayLanguage.default('english'),
  story_id: z.string().min(1),
  moment_id: z.string().min(1),
  player_line: z.string().max(2000),
  expected: z.object({
    outcome: z.enum(['continue', 'complete', 'end_of_game']).optional(),
    next_moment_id: z.string().optional(),
    perfect: z.boolean().optional(),
    matched: z.string().optional(),
  }).strict(),
}).strict();
export type EvalCase = z.infer<typeof EvalCase>;
export type EvalCaseInput = z.input<typeof EvalCase>;

export const EvaluationRow = z.object({
  id: z.string(),
  prompt_id: z.string(),
  name: z.string(),
  cases: z.array(EvalCase),
  created_at: z.string(),
});
export type EvaluationRow = z.infer<typeof EvaluationRow>;

export const EvaluationRunRow = z.object({
  id: z.string(),
  evaluation_id: z.string(),
  pass_rate: z.number().min(0).max(1).nullable(),
  results: z.array(z.unknown()),
  created_at: z.string(),
});
export type EvaluationRunRow = z.infer<typeof EvaluationRunRow>;

export class PromptRepo {
  readonly #db: Queryable;

  constructor(db: Queryable) {
    this.#db = db;
  }

  /** The latest prompt of a moment type and language (most recently updated, then highest version), or null. */
  async latestPrompt(momentType: MomentType, language: string): Promise<PromptRow | null> {
    const r = await this.#db.query(
      `SELECT * FROM prompt_management.prompts WHERE moment_type = $1 AND language = $2
        ORDER BY updated_at DESC, version DESC, created_at DESC, id LIMIT 1`,
      [momentType, language],
    );
    return parseRows(PromptRow, r.rows, 'prompt')[0] ?? null;
  }

  async prompt(id: string): Promise<PromptRow | null> {
    if (!isUuid(id)) return null;
    const r = await this.#db.query('SELECT * FROM prompt_management.prompts WHERE id = $1', [id]);
    return parseRows(PromptRow, r.rows, 'prompt')[0] ?? null;
  }

  /**
   * Seeds the default prompts (12 moment types x English and French) when the table has none; returns how many were
   * added. Safe when two processes start together: (name, version) is unique.
   */
  async seedDefaults(): Promise<number> {
    const count = await this.#db.query<{ n: number }>('SELECT count(*)::int AS n FROM prompt_management.prompts');
    if ((count.rows[0]?.n ?? 0) > 0) return 0;
    const rows = defaultPrompts();
    const values: unknown[] = [];
    const tuples = rows.map((p, i) => {
      values.push(p.name, p.moment_type, p.language, p.system_prompt, p.user_template);
      const b = i * 5;
      return `($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5})`;
    });
    const r = await this.#db.query(
      `INSERT INTO prompt_management.prompts (name, moment_type, language, system_prompt, user_template)
       VALUES ${tuples.join(', ')} ON CONFLICT (name, version) DO NOTHING`,
      values,
    );
    return r.rowCount;
  }

  /** One LLM call. An id that names no stored row (an evaluation's run, a deleted prompt) is stored as null. */
  async logCall(row: PromptLogInput): Promise<void> {
    await this.#db.query(
      `INSERT INTO prompt_management.prompt_logs
         (prompt_id, player_story_id, prompt, response, model, latency_ms, prompt_tokens, completion_tokens, outcome, fallback_reason)
       VALUES ((SELECT id FROM prompt_management.prompts WHERE id = $1::uuid), (SELECT id FROM public.player_stories WHERE id = $2::uuid), $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        row.prompt_id && isUuid(row.prompt_id) ? row.prompt_id : null,
        row.player_story_id && isUuid(row.player_story_id) ? row.player_story_id : null,
        row.prompt, row.response, row.model, Math.max(0, Math.round(row.latency_ms)),
        row.prompt_tokens, row.completion_tokens, row.outcome, row.fallback_reason,
      ],
    );
  }

  /** The latest calls of a prompt (null: calls made with the built-in prompt), newest first. */
  async listLogs(promptId: string | null, limit = 50): Promise<PromptLogRow[]> {
    const r = promptId === null
      ? await this.#db.query('SELECT * FROM prompt_management.prompt_logs WHERE prompt_id IS NULL ORDER BY created_at DESC, id LIMIT $1', [limit])
      : await this.#db.query('SELECT * FROM prompt_management.prompt_logs WHERE prompt_id = $1 ORDER BY created_at DESC, id LIMIT $2', [promptId, limit]);
    return parseRows(PromptLogRow, r.rows, 'prompt log');
  }

  async createEvaluation(e: { prompt_id: string; name: string; cases: EvalCaseInput[] }): Promise<EvaluationRow> {
    const cases = z.array(EvalCase).parse(e.cases);
    const r = await this.#db.query(
      'INSERT INTO prompt_management.evaluations (prompt_id, name, cases) VALUES ($1, $2, $3::text::jsonb) RETURNING *',
      [e.prompt_id, e.name, json(cases)],
    );
    const row = parseRows(EvaluationRow, r.rows, 'evaluation')[0];
    if (!row) throw new Error('store: evaluation not created');
    return row;
  }

  async evaluation(id: string): Promise<EvaluationRow | null> {
    if (!isUuid(id)) return null;
    const r = await this.#db.query('SELECT * FROM prompt_management.evaluations WHERE id = $1', [id]);
    return parseRows(EvaluationRow, r.rows, 'evaluation')[0] ?? null;
  }

  /** Evaluations, newest first; of one prompt when given. */
  async evaluations(promptId?: string): Promise<EvaluationRow[]> {
    const r = promptId === undefined
      ? await this.#db.query('SELECT * FROM prompt_management.evaluations ORDER BY created_at DESC, id')
      : await this.#db.query('SELECT * FROM prompt_management.evaluations WHERE prompt_id = $1 ORDER BY created_at DESC, id', [promptId]);
    return parseRows(EvaluationRow, r.rows, 'evaluation');
  }

  async recordRun(evaluationId: string, passRate: number, results: readonly unknown[]): Promise<EvaluationRunRow> {
    const r = await this.#db.query(
      'INSERT INTO prompt_management.evaluation_runs (evaluation_id, pass_rate, results) VALUES ($1, $2, $3::text::jsonb) RETURNING *',
      [evaluationId, Math.min(1, Math.max(0, passRate)), json(results)],
    );
    const row = parseRows(EvaluationRunRow, r.rows, 'evaluation run')[0];
    if (!row) throw new Error('store: evaluation run not recorded');
    return row;
  }

  /** The runs of an evaluation, newest first. */
  async runs(evaluationId: string): Promise<EvaluationRunRow[]> {
    const r = await this.#db.query(
      'SELECT * FROM prompt_management.evaluation_runs WHERE evaluation_id = $1 ORDER BY created_at DESC, id',
      [evaluationId],
    );
    return parseRows(EvaluationRunRow, r.rows, 'evaluation run');
  }
}
