// The `looptale` command: one commander program; each subcommand lives in its own file under cli/commands/ and
// exports `register(program)`. Exit codes: 0 success, 1 a check failed (validation, test plan, divergence),
// 2 bad usage or input (unreadable file, bad option).
// A command's module (and what it imports: Ink and its layout engine for `play`, the server for `serve`...) is loaded
// only when that command runs: `looptale serve` does not hold the other commands' code (#14 idle memory, ~30 MB).
import { Command } from 'commander';

type Register = (program: Command) => void;

/** Each top-level command name and the module that registers it (authors.ts registers three). */
const COMMANDS: Record<string, () => Promise<{ register: Register }>> = {
  story: () => import('./commands/story.js'),
  simulate: () => import('./commands/simulate.js'),
  serve: () => import('./commands/serve.js'),
  play: () => import('./commands/play.js'),
  replay: () => import('./commands/replay.js'),
  load: () => import('./commands/load.js'),
  doctor: () => import('./commands/doctor.js'),
  eval: () => import('./commands/eval.js'),
  authors: () => import('./commands/authors.js'),
  admins: () => import('./commands/authors.js'),
  user: () => import('./commands/authors.js'),
  db: () => import('./commands/db.js'),
  account: () => import('./commands/account.js'),
  waitlist: () => import('./commands/waitlist.js'),
};

/** The program with every command (`names`: only those, when the one to run is known). */
export async function buildProgram(names: readonly string[] = Object.keys(COMMANDS)): Promise<Command> {
  const program = new Command();
  program
    .name('looptale')
    .description('Looptale: voice-driven interactive stories. Play, author, simulate and serve.')
    .version('0.1.0')
    .showHelpAfterError();
  const loaders = [...new Set(names.map((n) => COMMANDS[n]).filter((l) => l !== undefined))];
  const modules = await Promise.all(loaders.map((load) => load()));
  const registered = new Set<Register>();
  for (const m of modules) {
    if (registered.has(m.register)) continue;
    registered.add(m.register);
    m.register(program);
  }
  return program;
}

export async function main(argv: string[]): Promise<void> {
  // `looptale <command> ...`: only that command; anything else (no command, --help, a typo) gets them all for help.
  const first = argv[2];
  const only = first !== undefined && first in COMMANDS ? [first] : undefined;
  await (await buildProgram(only)).parseAsync(argv);
}
