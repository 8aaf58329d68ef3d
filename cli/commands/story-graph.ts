// `looptale story graph <file> --format mermaid|dot [--lang en|fr] [--output FILE]`: the moment graph of a story,
// drawn by engine/story/graph.ts. A story with story errors (dangling transitions...) is still drawn, so the graph
// helps to find them; a file that fails the schema is not. Exit codes: 0 drawn, 2 unreadable, not JSON or not a story.
import { writeFileSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { storyGraph, type GraphFormat, type GraphLang } from '../../engine/story/graph.js';
import { validateStory } from '../../engine/story/validate.js';
import { formatProblems, readJsonFile } from './story-validate.js';

type GraphOptions = { format: GraphFormat; lang: GraphLang; output?: string };

export function addGraph(story: Command): void {
  story
    .command('graph')
    .description('print the moment graph of a story as Mermaid or Graphviz DOT')
    .argument('<file>', 'story JSON file')
    .addOption(new Option('--format <format>', 'output format').choices(['mermaid', 'dot']).makeOptionMandatory())
    .addOption(new Option('--lang <lang>', 'language of moment names and branch labels').choices(['en', 'fr']).default('en'))
    .option('--output <file>', 'write the graph to this file instead of standard output')
    .exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2))
    .addHelpText('after', `
Nodes are moments ("Harbour Night (Monologue)"), shaped by type; Epilogue and Dead End stand out. Edges are
transitions (labelled with the branch label), answers that pick the next moment (bold), and skip targets (dashed).

Examples:
  $ looptale story graph fixtures/stories/lantern-keeper/story.json --format mermaid
  $ looptale story graph fixtures/stories/clockwork-siege/story.json --format dot --lang fr --output siege.dot
  $ dot -Tsvg siege.dot -o siege.svg`)
    .action((file: string, opts: GraphOptions) => {
      const read = readJsonFile(file);
      if (!read.ok) {
        console.error(`looptale: ${read.message}`);
        process.exitCode = 2;
        return;
      }
      const { story: parsed, problems } = validateStory(read.value);
      if (!parsed) {
        const schema = problems.filter((p) => p.code.startsWith('schema/') || p.code === 'id/not_uuid_v4');
        console.error([`looptale: ${file} does not match the story format; \`looptale story validate ${file}\` lists every problem:`, ...formatProblems(schema)].join('\n'));
        process.exitCode = 2;
        return;
      }
      const errors = problems.filter((p) => p.severity === 'error').length;
      if (errors > 0) console.error(`looptale: note: ${file} has ${errors} error(s); see \`looptale story validate ${file}\`.`);
      const text = storyGraph(parsed, opts.format, opts.lang);
      if (opts.output === undefined) {
        process.stdout.write(text);
        return;
      }
      try {
        writeFileSync(opts.output, text);
      } catch (e) {
        console.error(`looptale: cannot write ${opts.output}: ${e instanceof Error ? e.message : String(e)}`);
        process.exitCode = 2;
      }
    });
}
