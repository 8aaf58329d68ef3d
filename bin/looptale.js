#!/usr/bin/env node
// Entry point of the `looptale` command. tsx loads the TypeScript sources directly, so a fresh
// clone works right after `npm ci` with no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../cli/main.ts');
await main(process.argv);
