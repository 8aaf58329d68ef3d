// The `looptale` command: one commander program; each subcommand lives in its own file under cli/commands/.
import { Command } from 'commander';

export function buildProgram(): Command {
  const program = new Command();
  program
    .name('looptale')
    .description('Looptale: voice-driven interactive stories. Play, author, simulate and serve.')
    .version('0.1.0')
    .showHelpAfterError();
  return program;
}

export async function main(argv: string[]): Promise<void> {
  await buildProgram().parseAsync(argv);
}
