// `looptale story validate <file...> [--json]`: checks story files with engine/story/validate.ts. This file does the
// reading; the engine stays pure. Exit codes: 0 every file ok (warnings allowed), 1 some file has errors,
// 2 a file is unreadable or not JSON.
import { readFileSync, statSync } from 'node:fs';
import type { Command } from 'commander';
import { storyFileSizeProblem, storyJsonProblem } from '../../engine/story/limits.js';
import { validateStory, type Problem } from '../../engine/story/validate.js';

export type JsonRead = { ok: true; value: unknown } | { ok: false; code: string; message: string };

/** Offset and reason of the first JSON syntax error (V8's own messages often give no position). */
function jsonErrorAt(text: string): { offset: number; reason: string } {
  let i = 0;
  const stop = (reason?: string): never => {
    throw Object.assign(new Error('json'), { at: { offset: i, reason: reason ?? (i >= text.length ? 'unexpected end of file' : `unexpected character ${JSON.stringify(text[i])}`) } });
  };
  const ws = (): void => { while (i < text.length && ' \t\n\r'.includes(text.charAt(i))) i++; };
  const str = (): void => {
    for (i++; i < text.length; i++) {
      const c = text.charAt(i);
      if (c === '"') { i++; return; }
      if (c < ' ') stop('line break or control character inside a string');
      if (c === '\\' && !/^\\(["\\/bfnrt]|u[0-9a-fA-F]{4})/.test(text.slice(i, i + 6))) stop('bad escape in a string');
      if (c === '\\') i += text.charAt(i + 1) === 'u' ? 5 : 1;
    }
    stop('unterminated string');
  };
  const list = (close: string, item: () => void): void => {
    i++;
    ws();
    if (text.charAt(i) === close) { i++; return; }
    for (;;) {
      item();
      ws();
      if (text.charAt(i) === close) { i++; return; }
      if (text.charAt(i) !== ',') stop(`expected ',' or '${close}'`);
      i++;
      ws();
      if (text.charAt(i) === close) stop(`trailing comma before '${close}'`);
    }
  };
  const value = (): void => {
    ws();
    const c = text.charAt(i);
    if (c === '{') return list('}', () => {
      ws();
      if (text.charAt(i) !== '"') stop('expected a "quoted" property name');
      str();
      ws();
      if (text.charAt(i) !== ':') stop("expected ':' after the property name");
      i++;
      value();
    });
    if (c === '[') return list(']', value);
    if (c === '"') return str();
    const lit = /^(true|false|null|-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?)/.exec(text.slice(i, i + 64));
    if (!lit) stop();
    i += lit?.[0].length ?? 0;
  };
  try {
    value();
    ws();
    if (i < text.length) stop('unexpected text after the end of the JSON value');
  } catch (e) {
    if (e instanceof Error && 'at' in e) return e.at as { offset: number; reason: string };
    throw e;
  }
  return { offset: 0, reason: 'invalid JSON' };
}

/**
 * Reads and parses a story file within the limits of engine/story/limits.ts (size before reading; depth, values and
 * keys after parsing); failures come back as values with a readable message (line and column for bad JSON).
 */
export function readJsonFile(file: string): JsonRead {
  let text: string;
  try {
    const tooLarge = storyFileSizeProblem(statSync(file).size);
    if (tooLarge) return { ok: false, code: 'file/too_large', message: `${file} is not read: ${tooLarge}` };
    text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  } catch (e) {
    return { ok: false, code: 'file/unreadable', message: `cannot read ${file}: ${e instanceof Error ? e.message : String(e)}` };
  }
  try {
    const value = JSON.parse(text) as unknown;
    const limit = storyJsonProblem(value);
    return limit ? { ok: false, code: limit.code, message: `${file}: ${limit.message}` } : { ok: true, value };
  } catch {
    const { offset, reason } = jsonErrorAt(text);
    const before = text.slice(0, offset).split('\n');
    const line = before.length;
    const column = (before[before.length - 1]?.length ?? 0) + 1;
    return { ok: false, code: 'file/invalid_json', message: `${file} is not valid JSON: ${reason} at line ${line}, column ${column} (position ${offset})` };
  }
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

export function summary(file: string, problems: readonly Problem[]): string {
  const errors = problems.filter((p) => p.severity === 'error').length;
  const counts = `${plural(errors, 'error')}, ${plural(problems.length - errors, 'warning')}`;
  return `${file}: ${errors === 0 ? 'ok' : 'failed'} (${counts})`;
}

/** Problems printed per file; the rest are counted (they are all in --json). */
export const MAX_PROBLEMS_SHOWN = 200;

/** One problem per line, `severity  path  code  message`, with the columns aligned within a file. */
export function formatProblems(all: readonly Problem[]): string[] {
  const problems = all.slice(0, MAX_PROBLEMS_SHOWN);
  const pathWidth = Math.min(56, Math.max(0, ...problems.map((p) => p.path.length)));
  const codeWidth = Math.max(0, ...problems.map((p) => p.code.length));
  const lines = problems.map((p) => `  ${p.severity.padEnd(7)}  ${p.path.padEnd(pathWidth)}  ${p.code.padEnd(codeWidth)}  ${p.message}`);
  const more = all.length - problems.length;
  if (more > 0) lines.push(`  ... and ${more.toLocaleString('en-US')} more problems (fix these first, or see them all with --json)`);
  return lines;
}

type FileResult = { file: string; ok: boolean; problems: Problem[] };

export function addValidate(story: Command): void {
  story
    .command('validate')
    .description('check story files: the schema, ids and references, the moment graph, translations')
    .argument('<file...>', 'story JSON files')
    .option('--json', 'print one JSON document { files: [{ file, ok, problems }] } instead of text')
    .exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2))
    .addHelpText('after', `
Each problem is printed as "severity  path  code  message", e.g.
  error    $.moments[3].transitions[0].next_moment_id  ref/unknown_moment  Transition 0 of moment "Fork" points to no moment: 3f2a...

Examples:
  $ looptale story validate fixtures/stories/lantern-keeper/story.json
  $ looptale story validate fixtures/stories/*/story.json --json

Exit codes: 0 no errors (warnings allowed), 1 a story has errors, 2 a file is unreadable, not JSON, or beyond the
limits of a story file (4 MB, 32 levels deep, 100,000 keys, 200,000 values).`)
    .action((files: string[], opts: { json?: boolean }) => {
      const results: FileResult[] = [];
      let unreadable = false;
      for (const file of files) {
        const read = readJsonFile(file);
        if (!read.ok) {
          unreadable = true;
          console.error(`looptale: ${read.message}`);
          results.push({ file, ok: false, problems: [{ severity: 'error', path: '$', code: read.code, message: read.message }] });
          continue;
        }
        const { ok, problems } = validateStory(read.value);
        results.push({ file, ok, problems });
        if (!opts.json) {
          if (problems.length > 0) console.log([file, ...formatProblems(problems)].join('\n'));
          console.log(summary(file, problems));
        }
      }
      if (opts.json) console.log(JSON.stringify({ files: results }, null, 2));
      process.exitCode = unreadable ? 2 : results.every((r) => r.ok) ? 0 : 1;
    });
}
