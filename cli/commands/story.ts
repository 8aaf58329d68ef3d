// `looptale story ...`: the story maker's commands. Each subcommand is registered from its own file.
import type { Command } from 'commander';
import { addAuthors } from './authors.js';
import { addGraph } from './story-graph.js';
import { addExport, addImport } from './story-import.js';
import { addLintSpeech } from './story-lint-speech.js';
import { addTest } from './story-test.js';
import { addValidate } from './story-validate.js';

export type StorySubcommand = (story: Command) => void;

const subcommands: StorySubcommand[] = [
  addValidate,
  addGraph,
  addTest,
  addLintSpeech,
  addImport,
  addExport,
  addAuthors,
];

export function register(program: Command): void {
  const story = program.command('story').description('author, check and test story files');
  for (const add of subcommands) add(story);
}
