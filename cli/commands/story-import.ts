// `looptale story import <file>` and `looptale story export <id>`: moving story files in and out of the server's
// database (the one `looptale serve` would use: DATABASE_URL or DATA_DIR, or the flags). Import validates first and
// refuses a story with errors. Exit codes: 0 done, 1 the story has errors or is not in the database, 2 bad usage,
// unreadable file or database unavailable.
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { validateStory } from '../../engine/story/validate.js';
import { StoryImportError, StoryRepo } from '../../server/store/stories.js';
import { dbOptions, withDb, type DbOptions } from '../lib/database.js';
import { CliError, runCommand } from '../lib/story-file.js';
import { formatProblems, readJsonFile, summary } from './story-validate.js';

function withStories<T>(o: DbOptions, body: (repo: StoryRepo, where: string) => Promise<T>): Promise<T> {
  return withDb(o, (db, where) => body(new StoryRepo(db), where));
}

export function addImport(story: Command): void {
  dbOptions(story
    .command('import')
    .description('validate a story file and import it into the database (a story with the same id is replaced)')
    .argument('<file>', 'story JSON file'))
    .addHelpText('after', `
Examples:
  $ looptale story import fixtures/stories/lantern-keeper/story.json
  $ looptale story import my-story.json --database-url postgres://user@db/looptale

Exit codes: 0 imported, 1 the story has errors, 2 unreadable file or database unavailable.`)
    .action((file: string, o: DbOptions) => runCommand(async () => {
      const read = readJsonFile(file);
      if (!read.ok) throw new CliError(read.message);
      const { ok, story, problems } = validateStory(read.value);
      if (!ok || !story) {
        process.stderr.write(`${[file, ...formatProblems(problems), summary(file, problems)].join('\n')}\nlooptale: not imported: fix the errors first.\n`);
        return 1;
      }
      return withStories(o, async (repo, where) => {
        try {
          await repo.importStory(story, read.value);
        } catch (e) {
          if (e instanceof StoryImportError) throw new CliError(e.message, 1);
          throw e;
        }
        const warnings = problems.length;
        process.stdout.write(
          `Imported "${story.name}" (${story.id}) into ${where}: ${story.moments.length} moments, ${story.characters.length} characters, ` +
          `${story.items.length} items, ${story.places.length} places${warnings > 0 ? ` (${warnings} warning${warnings === 1 ? '' : 's'}: run story validate)` : ''}.\n`,
        );
        return 0;
      });
    }));
}

export function addExport(story: Command): void {
  dbOptions(story
    .command('export')
    .description('write a story from the database as JSON, exactly as it was imported')
    .argument('<id>', 'story id')
    .option('-o, --output <file>', 'write to this file instead of standard output'))
    .addHelpText('after', `
Examples:
  $ looptale story export 8b800bd3-b107-4b49-81d1-b7a4b8dcbc5a > lantern-keeper.json
  $ looptale story export 8b800bd3-b107-4b49-81d1-b7a4b8dcbc5a --output lantern-keeper.json

Exit codes: 0 written, 1 no such story, 2 database unavailable or file not writable.`)
    .action((id: string, o: DbOptions & { output?: string }) => runCommand(() => withStories(o, async (repo, where) => {
      const raw = await repo.exportStory(id);
      if (raw === null) throw new CliError(`No story ${id} in ${where}.`, 1);
      const text = `${JSON.stringify(raw, null, 2)}\n`;
      if (!o.output) {
        process.stdout.write(text);
        return 0;
      }
      try {
        writeFileSync(o.output, text);
      } catch (e) {
        throw new CliError(`Cannot write ${o.output}: ${e instanceof Error ? e.message : String(e)}`);
      }
      process.stderr.write(`Wrote ${o.output}\n`);
      return 0;
    })));
}
