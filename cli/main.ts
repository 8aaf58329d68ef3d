// The `looptale` command: one commander program; each subcommand lives in its own file under cli/commands/ and
// exports `register(program)`. Exit codes: 0 success, 1 a check failed (validation, test plan, divergence),
// 2 bad usage or input (unreadable file, bad option).
import { Command } from 'commander';
import { register as registerStory } from './commands/story.js';
import { register as registerDoctor } from './commands/doctor.js';
import { register as registerLoad } from './commands/load.js';
import { register as registerReplay } from './commands/replay.js';
import { register as registerServe } from './commands/serve.js';
import { register as registerSimulate } from './commands/simulate.js';
import { register as registerPlay } from './commands/play.js';
import { register as registerEval } from './commands/eval.js';
import { register as registerAdmins } from './commands/authors.js';
import { register as registerDb } from './commands/db.js';

export function buildProgram(): Command {
  const program = new Command();
  program
    .name('looptale')
    .description('Looptale: voice-driven interactive stories. Play, author, simulate and serve.')
    .version('0.1.0')
    .showHelpAfterError();
  registerStory(program);
  registerSimulate(program);
  registerServe(program);
  registerPlay(program);
  registerReplay(program);
  registerLoad(program);
  registerDoctor(program);
  registerEval(program);
  registerAdmins(program);
  registerDb(program);
  return program;
}

export async function main(argv: string[]): Promise<void> {
  await buildProgram().parseAsync(argv);
}
