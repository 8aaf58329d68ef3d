#!/usr/bin/env node
// Entry point of the `looptale` command. tsx loads the TypeScript sources directly, so a fresh
// clone works right after `npm ci` with no build step.
import { register } from 'tsx/esm/api';

register();
// `looptale ... | head` closes the pipe early: stop quietly instead of crashing with EPIPE.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});
const { main } = await import('../cli/main.ts');
await main(process.argv);
