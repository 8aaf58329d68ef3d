// `looptale eval run|create|list`: prompt evaluations against the server's database (DATABASE_URL or DATA_DIR, or the
// flags), the same database `looptale serve` uses. `run` plays each case against the configured brain (the LLM when
// LLM_BASE_URL and LLM_MODEL are set, else the scripted brain as the baseline), stores the run with its pass rate in
// prompt_management.evaluation_runs and prints a table. Exit codes: 0 done, 1 pass rate below --min-pass or nothing
// found, 2 bad usage, unreadable file or database unavailable.
import { basename } from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { MOMENT_TYPES, PlayLanguage, type MomentType } from '../../engine/schema/enums.js';
import type { Story } from '../../engine/story/format.js';
import { llmSettings, loadBrainConfig } from '../../server/brain/config.js';
import { deriveCases, runEvaluation, type CaseResult } from '../../server/brain/eval.js';
import { LlmBrain, type PromptSource } from '../../server/brain/llm.js';
import { ScriptedBrain, type Brain } from '../../server/game/brain.js';
import { EvalCase, PromptRepo, type EvaluationRow, type PromptRow } from '../../server/store/prompts.js';
import { StoryRepo } from '../../server/store/stories.js';
import { ConfigError } from '../../server/config.js';
import { dbOptions, withDb, type DbOptions } from '../lib/database.js';
import { CliError, loadStory, readJsonFile, runCommand } from '../lib/story-file.js';

function momentType(v: string): MomentType | null {
  const k = v.toLowerCase().replace(/[-_\s]+/g, ' ');
  return MOMENT_TYPES.find((t) => t.toLowerCase() === k) ?? null;
}

/** A prompt by id, or the latest prompt of a moment type (default prompts seeded first). */
async function resolvePrompt(repo: PromptRepo, target: string, language: PlayLanguage): Promise<PromptRow> {
  await repo.seedDefaults();
  const type = momentType(target);
  const prompt = type ? await repo.latestPrompt(type, language) : await repo.prompt(target);
  if (!prompt) throw new CliError(type ? `No ${language} prompt for ${type} moments.` : `No prompt ${target} (give a prompt id or a moment type: ${MOMENT_TYPES.join(', ')}).`, 1);
  return prompt;
}

const CasesFile = z.union([z.array(EvalCase), z.object({ name: z.string().optional(), cases: z.array(EvalCase) })]);

function readCases(file: string): { name: string | undefined; cases: EvalCase[] } {
  const r = CasesFile.safeParse(readJsonFile(file));
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new CliError(`${file} is not a cases file (${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'invalid'}): a JSON array of {moment_type, language, story_id, moment_id, player_line, expected}`);
  }
  return Array.isArray(r.data) ? { name: undefined, cases: r.data } : { name: r.data.name, cases: r.data.cases };
}

/** The configured brain; the LLM brain answers with this prompt for its moment type (others: their latest prompt). */
function configuredBrain(repo: PromptRepo, prompt: PromptRow): { brain: Brain; llm: boolean } {
  let settings;
  try {
    settings = llmSettings(loadBrainConfig(process.env));
  } catch (e) {
    if (e instanceof ConfigError) throw new CliError(e.message);
    throw e;
  }
  if (!settings) return { brain: new ScriptedBrain(), llm: false };
  const pinned: PromptSource = {
    latestPrompt: (type, language) => (type === prompt.moment_type && language === prompt.language ? Promise.resolve(prompt) : repo.latestPrompt(type, language)),
    logCall: (row) => repo.logCall(row),
  };
  return { brain: new LlmBrain({ settings: { ...settings, cache: false }, prompts: pinned }), llm: true };
}

/** JSON with sorted keys: stored cases come back from jsonb with their keys reordered. */
function stableJson(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (x && typeof x === 'object' && !Array.isArray(x)
    ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
    : x));
}

const cell = (s: string, n: number): string => (s.length > n - 1 ? `${s.slice(0, n - 2)}… ` : s.padEnd(n));

function expectedText(r: CaseResult): string {
  const e = r.expected;
  return [e.outcome, e.matched !== undefined ? `'${e.matched}'` : '', e.next_moment_id ? `-> ${e.next_moment_id.slice(0, 8)}` : '', e.perfect ? 'perfect' : ''].filter(Boolean).join(' ');
}

function actualText(r: CaseResult): string {
  const a = r.actual;
  if (!a) return '(no decision)';
  return [a.outcome, `'${a.matched}'`, a.next_moment_id ? `-> ${a.next_moment_id.slice(0, 8)}` : '', a.perfect ? 'perfect' : ''].filter(Boolean).join(' ');
}

export function formatTable(results: readonly CaseResult[]): string {
  const lines = [`${cell('#', 4)}${cell('type', 11)}${cell('player line', 30)}${cell('expected', 30)}${cell('got', 30)}result`];
  for (const r of results) {
    lines.push(`${cell(String(r.index + 1), 4)}${cell(r.moment_type, 11)}${cell(`"${r.player_line}"`, 30)}${cell(expectedText(r), 30)}${cell(actualText(r), 30)}${r.pass ? 'PASS' : 'FAIL'}`);
    if (!r.pass) for (const m of r.mismatches) lines.push(`      ${m}`);
  }
  return lines.join('\n');
}

type RunOptions = DbOptions & { story?: string; cases?: string; language: string; name?: string; minPass: string; json?: boolean };

function addRun(ev: Command): void {
  dbOptions(ev
    .command('run')
    .description('play an evaluation\'s cases against the configured brain; store and print the pass rate')
    .argument('<prompt>', 'a prompt id, or a moment type (its latest prompt)')
    .option('--story <file>', 'story JSON file (cases are derived from its authored answers when no --cases is given)')
    .option('--cases <file>', 'cases JSON file: [{moment_type, language, story_id, moment_id, player_line, expected}]')
    .option('--language <lang>', 'english | french (prompt and derived cases)', 'english')
    .option('--name <name>', 'name of the evaluation created from --cases or --story')
    .option('--min-pass <rate>', 'exit 1 when the pass rate is below this (0 to 1)', '0')
    .option('--json', 'print the run as JSON'))
    .addHelpText('after', `
Without --cases or --story, the prompt's latest evaluation (looptale eval create) is run.
The brain is the server's: the LLM when LLM_BASE_URL and LLM_MODEL are set (or BRAIN=llm), else the scripted brain.

Examples:
  $ looptale eval run Learn --story fixtures/stories/lantern-keeper/story.json
  $ LLM_BASE_URL=http://localhost:11434/v1 LLM_MODEL=llama3.1 looptale eval run Test --story fixtures/stories/lantern-keeper/story.json --min-pass 0.8
  $ looptale eval run 5f0c3a1e-0000-4000-8000-000000000001 --cases my-cases.json --json

Exit codes: 0 done, 1 pass rate below --min-pass or no such prompt/cases, 2 bad usage or database unavailable.`)
    .action((target: string, o: RunOptions) => runCommand(async () => {
      const lang = PlayLanguage.safeParse(o.language);
      if (!lang.success) throw new CliError(`--language must be english or french (got '${o.language}')`);
      const minPass = Number(o.minPass);
      if (!Number.isFinite(minPass) || minPass < 0 || minPass > 1) throw new CliError(`--min-pass must be a number from 0 to 1 (got '${o.minPass}')`);
      const fileStory: Story | null = o.story ? loadStory(o.story) : null;
      const fromFile = o.cases ? readCases(o.cases) : null;
      return withDb(o, async (db, where) => {
        const repo = new PromptRepo(db);
        const prompt = await resolvePrompt(repo, target, lang.data);
        let evaluation: EvaluationRow;
        if (fromFile) {
          evaluation = await repo.createEvaluation({ prompt_id: prompt.id, name: o.name ?? fromFile.name ?? `cases from ${basename(o.cases ?? '')}`, cases: fromFile.cases });
        } else if (fileStory) {
          if (!prompt.moment_type) throw new CliError(`Prompt ${prompt.id} has no moment type: give --cases.`);
          const cases = deriveCases(fileStory, prompt.moment_type, lang.data);
          if (cases.length === 0) throw new CliError(`"${fileStory.name}" has no authored answers at ${prompt.moment_type} moments to derive cases from: give --cases.`, 1);
          const name = o.name ?? `${prompt.moment_type} answers of ${fileStory.name} (${lang.data})`;
          // The same derived cases reuse their evaluation, so runs line up over time.
          const same = (await repo.evaluations(prompt.id)).find((e) => e.name === name && stableJson(e.cases) === stableJson(cases));
          evaluation = same ?? await repo.createEvaluation({ prompt_id: prompt.id, name, cases });
        } else {
          const latest = (await repo.evaluations(prompt.id))[0];
          if (!latest) throw new CliError(`Prompt ${prompt.name} has no evaluation in ${where}: give --cases or --story, or create one with looptale eval create.`, 1);
          evaluation = latest;
        }
        const { brain, llm } = configuredBrain(repo, prompt);
        if (!llm) process.stderr.write('No LLM is configured (set LLM_BASE_URL and LLM_MODEL, or BRAIN=llm): running the scripted brain as the baseline.\n');
        const stories = new StoryRepo(db);
        const result = await runEvaluation(evaluation.cases, {
          brain,
          story: async (id) => (fileStory?.id === id ? fileStory : stories.getStory(id)),
        });
        const run = await repo.recordRun(evaluation.id, result.pass_rate, result.results);
        if (o.json) {
          process.stdout.write(`${JSON.stringify({
            prompt_id: prompt.id, prompt_name: prompt.name, evaluation_id: evaluation.id, evaluation_name: evaluation.name, run_id: run.id,
            brain: llm ? 'llm' : 'scripted', pass_rate: result.pass_rate, passed: result.passed, total: result.total, results: result.results,
          }, null, 2)}\n`);
        } else {
          process.stdout.write(`Evaluation "${evaluation.name}" (${evaluation.id}), prompt ${prompt.name} v${prompt.version}, ${llm ? 'LLM' : 'scripted'} brain\n`);
          process.stdout.write(`${formatTable(result.results)}\n`);
          process.stdout.write(`Pass rate: ${result.passed}/${result.total} (${(result.pass_rate * 100).toFixed(1)}%); run ${run.id} stored in ${where}.\n`);
        }
        if (result.pass_rate < minPass) {
          process.stderr.write(`looptale: pass rate ${result.pass_rate.toFixed(3)} is below --min-pass ${minPass}\n`);
          return 1;
        }
        return 0;
      });
    }));
}

function addCreate(ev: Command): void {
  dbOptions(ev
    .command('create')
    .description('store an evaluation: cases for a prompt')
    .requiredOption('--name <name>', 'evaluation name')
    .requiredOption('--prompt <prompt>', 'a prompt id, or a moment type (its latest prompt)')
    .requiredOption('--cases <file>', 'cases JSON file')
    .option('--language <lang>', 'english | french (with a moment type)', 'english'))
    .addHelpText('after', `
Example:
  $ looptale eval create --name "Learn basics" --prompt Learn --cases learn-cases.json`)
    .action((o: DbOptions & { name: string; prompt: string; cases: string; language: string }) => runCommand(async () => {
      const lang = PlayLanguage.safeParse(o.language);
      if (!lang.success) throw new CliError(`--language must be english or french (got '${o.language}')`);
      const { cases } = readCases(o.cases);
      return withDb(o, async (db, where) => {
        const repo = new PromptRepo(db);
        const prompt = await resolvePrompt(repo, o.prompt, lang.data);
        const e = await repo.createEvaluation({ prompt_id: prompt.id, name: o.name, cases });
        process.stdout.write(`Created evaluation "${e.name}" (${e.id}) with ${e.cases.length} case${e.cases.length === 1 ? '' : 's'} for prompt ${prompt.name} in ${where}.\n`);
        return 0;
      });
    }));
}

function addList(ev: Command): void {
  dbOptions(ev
    .command('list')
    .description('list evaluations with their latest pass rate')
    .option('--json', 'print as JSON'))
    .action((o: DbOptions & { json?: boolean }) => runCommand(() => withDb(o, async (db, where) => {
      const repo = new PromptRepo(db);
      const rows = await Promise.all((await repo.evaluations()).map(async (e) => {
        const [prompt, runs] = await Promise.all([repo.prompt(e.prompt_id), repo.runs(e.id)]);
        const last = runs[0];
        return {
          id: e.id, name: e.name, prompt_id: e.prompt_id, prompt_name: prompt?.name ?? null, cases: e.cases.length, runs: runs.length,
          last_pass_rate: last?.pass_rate ?? null, last_run_at: last?.created_at ?? null,
        };
      }));
      if (o.json) {
        process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
        return 0;
      }
      if (rows.length === 0) {
        process.stdout.write(`No evaluations in ${where}. Create one with looptale eval create, or run looptale eval run <type> --story <file>.\n`);
        return 0;
      }
      process.stdout.write(`${cell('evaluation', 38)}${cell('name', 40)}${cell('prompt', 36)}${cell('cases', 7)}${cell('runs', 6)}last pass rate\n`);
      for (const r of rows) {
        const rate = r.last_pass_rate === null ? '-' : `${(r.last_pass_rate * 100).toFixed(1)}% (${r.last_run_at ?? ''})`;
        process.stdout.write(`${cell(r.id, 38)}${cell(r.name, 40)}${cell(r.prompt_name ?? r.prompt_id, 36)}${cell(String(r.cases), 7)}${cell(String(r.runs), 6)}${rate}\n`);
      }
      return 0;
    })));
}

export function register(program: Command): void {
  const ev = program.command('eval').description('evaluate the LLM brain\'s prompts: cases, runs and pass rates');
  addRun(ev);
  addCreate(ev);
  addList(ev);
}
