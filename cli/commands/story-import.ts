// `looptale story import <file>` and `looptale story export <id>`: moving story files in and out of the server's
// database (the one `looptale serve` would use: DATABASE_URL or DATA_DIR, or the flags). Import validates first and
// refuses a story with errors. Exit codes: 0 done, 1 the story has errors or is not in the database, 2 bad usage,
// unreadable file or database unavailable. A FILE ending in .tar is a story archive (story.json with its media:
// server/media/story-archive.ts), checked whole before anything is written; `--output FILE.tar` exports one.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { validateStory } from '../../engine/story/validate.js';
import { StoryImportError, StoryRepo } from '../../server/store/stories.js';
import { DraftRepo } from '../../server/store/drafts.js';
import { dbOptions, withDb, type DbOptions } from '../lib/database.js';
import { archiveLimits, checkStoryArchive, exportStoryArchive, writeStoryArchive } from '../../server/media/story-archive.js';
import { openMediaStore } from '../../server/media/store.js';
import { CliError, runCommand } from '../lib/story-file.js';
import { formatProblems, readJsonFile, summary } from './story-validate.js';

function withStories<T>(o: DbOptions, body: (repo: StoryRepo, where: string) => Promise<T>): Promise<T> {
  return withDb(o, (db, where) => body(new StoryRepo(db), where));
}

export function addImport(story: Command): void {
  dbOptions(story
    .command('import')
    .description('validate a story file and import it into the database (a story with the same id is replaced)')
    .argument('<file>', 'story JSON file, or a story archive (.tar: story.json, media/image/*, media/sound/*)')
    .option('--draft', "import as a new revision of the story's draft (the studio's history shows it, field by field): nothing is published; the story must be in the database already"))
    .addHelpText('after', `
Examples:
  $ looptale story import fixtures/stories/lantern-keeper/story.json
  $ looptale story import my-story.json --database-url postgres://user@db/looptale
  $ looptale story import lantern-keeper.tar       # the story and its media, as story export --output *.tar wrote them
  $ looptale story import my-story.json --draft    # a new draft revision of the story: publish it from the studio

Exit codes: 0 imported, 1 the story has errors, 2 unreadable file or database unavailable.`)
    .action((file: string, o: DbOptions & { draft?: boolean }) => runCommand(async () => {
      if (file.toLowerCase().endsWith('.tar')) {
        if (o.draft) throw new CliError('--draft takes a story JSON file, not an archive: import the archive without --draft.');
        return importArchive(file, o);
      }
      const read = readJsonFile(file);
      if (!read.ok) throw new CliError(read.message);
      const { ok, story, problems } = validateStory(read.value);
      if (!ok || !story) {
        process.stderr.write(`${[file, ...formatProblems(problems), summary(file, problems)].join('\n')}\nlooptale: not imported: fix the errors first.\n`);
        return 1;
      }
      if (o.draft) return importDraft(file, read.value as Record<string, unknown>, story.id, o);
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

/** Imports a story file as one new revision of the story's draft (made from its newest version when it has none):
 *  the history keeps it field by field, and nothing is published. */
async function importDraft(file: string, doc: Record<string, unknown>, storyId: string, o: DbOptions): Promise<number> {
  return withDb(o, async (db, where) => {
    const drafts = new DraftRepo(db, new StoryRepo(db));
    try {
      await drafts.ensure(storyId, null);
      const now = await drafts.open(storyId, null);
      if (!now) throw new CliError(`Story ${storyId} is not in ${where}: import it once without --draft first.`, 1);
      const w = await drafts.replace(storyId, now.revision, doc, '');
      if (!w.ok) throw new CliError(`${file}: not imported as a draft (${w.kind}).`, 1);
      const changed = w.draft.revision !== now.revision;
      process.stdout.write(changed
        ? `Imported ${file} as revision ${w.draft.revision} of the draft of "${String(doc.name)}" (${storyId}) in ${where}: publish it from the studio's History.\n`
        : `${file} is the draft of "${String(doc.name)}" as it is (revision ${now.revision}): nothing changed.\n`);
      return 0;
    } finally {
      await drafts.flush();
    }
  });
}

/** Imports a story archive: checked whole (archive caps, story, media) before the story and its media are written. */
async function importArchive(file: string, o: DbOptions): Promise<number> {
  let bytes: Buffer;
  try {
    if (statSync(file).size > 4 * 1024 * 1024 * 1024) throw new CliError(`${file} is larger than 4 GB: not a story archive.`);
    bytes = readFileSync(file);
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw new CliError(`Cannot read ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
  return withDb(o, async (db, where, config) => {
    const checked = await checkStoryArchive(bytes, archiveLimits(config));
    if (!checked.ok) {
      const lines = checked.problems ? formatProblems(checked.problems) : [];
      process.stderr.write(`${[file, ...lines].join('\n')}\n${file}: ${checked.message}\nlooptale: not imported.\n`);
      return 1;
    }
    const written = await writeStoryArchive({ stories: new StoryRepo(db), media: await openMediaStore(config, db) }, checked);
    if (!written.ok) throw new CliError(written.message, 1);
    process.stdout.write(`Imported "${checked.story.name}" (${checked.story.id}) into ${where} with ${written.files} media file${written.files === 1 ? '' : 's'}${checked.warnings > 0 ? ` (${checked.warnings} warning${checked.warnings === 1 ? '' : 's'}: run story validate)` : ''}.\n`);
    return 0;
  });
}

export function addExport(story: Command): void {
  dbOptions(story
    .command('export')
    .description('write a story from the database as JSON, exactly as it was imported')
    .argument('<id>', 'story id')
    .option('-o, --output <file>', 'write to this file instead of standard output; a name ending in .tar writes the story with its media'))
    .addHelpText('after', `
Examples:
  $ looptale story export 8b800bd3-b107-4b49-81d1-b7a4b8dcbc5a > lantern-keeper.json
  $ looptale story export 8b800bd3-b107-4b49-81d1-b7a4b8dcbc5a --output lantern-keeper.json
  $ looptale story export 8b800bd3-b107-4b49-81d1-b7a4b8dcbc5a --output lantern-keeper.tar   # with its media

Exit codes: 0 written, 1 no such story, 2 database unavailable or file not writable.`)
    .action((id: string, o: DbOptions & { output?: string }) => runCommand(() => withDb(o, async (db, where, config) => {
      const repo = new StoryRepo(db);
      if (o.output?.toLowerCase().endsWith('.tar')) {
        const out = await exportStoryArchive({ stories: repo, media: await openMediaStore(config, db) }, id, archiveLimits(config));
        if (out === null) throw new CliError(`No story ${id} in ${where}.`, 1);
        if (!out.ok) throw new CliError(out.message);
        try {
          writeFileSync(o.output, out.bytes);
        } catch (e) {
          throw new CliError(`Cannot write ${o.output}: ${e instanceof Error ? e.message : String(e)}`);
        }
        process.stderr.write(`Wrote ${o.output} (story.json and ${out.files} media file${out.files === 1 ? '' : 's'})\n`);
        return 0;
      }
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
