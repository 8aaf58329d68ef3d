// `looptale story validate <file...> [--json]`: checks story files with engine/story/validate.ts. This file does the
// reading; the engine stays pure. Exit codes: 0 every file ok (warnings allowed), 1 some file has errors,
// 2 a file is unreadable or not JSON.
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { validateStory, type Problem } from '../../engine/story/validate.js';

export type JsonRead = { ok: true; value: unknown } | { ok: false; code: 'file/unreadable' | 'file/invalid_json'; message: string };

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

/** Reads and parses a JSON file; failures come back as values with a readable message (line and column). */
export function readJsonFile(file: string): JsonRead {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  } catch (e) {
    return { ok: false, code: 'file/unreadable', message: `cannot read ${file}: ${e instanceof Error ? e.message : String(e)}` };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
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

/** One problem per line, `severity  path  code  message`, with the columns aligned within a file. */
export function formatProblems(problems: readonly Problem[]): string[] {
  const pathWidth = Math.min(56, Math.max(0, ...problems.map((p) => p.path.length)));
  const codeWidth = Math.max(0, ...problems.map((p) => p.code.length));
  return problems.map((p) => `  ${p.severity.padEnd(7)}  ${p.path.padEnd(pathWidth)}  ${p.code.padEnd(codeWidth)}  ${p.message}`);
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

Exit codes: 0 no errors (warnings allowed), 1 a story has errors, 2 a file is unreadable or not JSON.`)
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
