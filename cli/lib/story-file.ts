// Reading a story file from disk for the CLI: the only place the story commands touch the file system.
import { readFileSync, statSync } from 'node:fs';
import { ApiError } from '../../engine/client/api/http.js';
import { Story } from '../../engine/story/format.js';
import { storyFileSizeProblem, storyJsonProblem } from '../../engine/story/limits.js';

export class CliError extends Error {
  constructor(message: string, readonly exitCode = 2) {
    super(message);
  }
}

/** A story file's JSON, within the limits of a story file (engine/story/limits.ts); a CliError (exit 2) otherwise. */
export function readJsonFile(file: string): unknown {
  let text: string;
  try {
    const tooLarge = storyFileSizeProblem(statSync(file).size);
    if (tooLarge) throw new CliError(`${file} is not read: ${tooLarge}`);
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw new CliError(`Cannot read ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (e) {
    throw new CliError(`${file} is not valid JSON: ${(e as Error).message}`);
  }
  const limit = storyJsonProblem(value);
  if (limit) throw new CliError(`${file}: ${limit.message}`);
  return value;
}

/** Loads and parses a story; a story that does not parse is a usage error pointing at `story validate`. */
export function loadStory(file: string): Story {
  const r = Story.safeParse(readJsonFile(file));
  if (!r.success) {
    const first = r.error.issues[0];
    throw new CliError(`${file} is not a valid story (${first ? `${first.path.join('.')}: ${first.message}` : 'schema error'}). Run: looptale story validate ${file}`);
  }
  return r.data;
}

/** Runs a command body, turning CliErrors into a message on stderr and an exit code. */
export async function runCommand(body: () => Promise<number | void> | number | void): Promise<void> {
  try {
    const code = await body();
    if (typeof code === 'number') process.exitCode = code;
  } catch (e) {
    if (e instanceof CliError) {
      process.stderr.write(`looptale: ${e.message}\n`);
      process.exitCode = e.exitCode;
      return;
    }
    // A request the server refused or could not be sent (its message says what was being done).
    if (e instanceof ApiError) {
      process.stderr.write(`looptale: ${e.message}${e.status ? ` (HTTP ${e.status})` : ''}\n`);
      process.exitCode = 1;
      return;
    }
    throw e;
  }
}
