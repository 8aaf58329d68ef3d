#!/usr/bin/env node
// Entry point of the `looptale` command. tsx loads the TypeScript sources directly, so a fresh
// clone works right after `npm ci` with no build step. `serve` runs from the prebuilt bundle instead when there is
// a fresh one (bin/serve-bundle.js: `npm start` builds it): a start or restart then skips compiling through tsx.
import { freshServeBundle } from './serve-bundle.js';

// `looptale ... | head` closes the pipe early: stop quietly instead of crashing with EPIPE.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});
const bundle = process.argv[2] === 'serve' && process.env.LOOPTALE_BUNDLE !== '0' ? freshServeBundle() : null;
if (bundle) {
  process.setSourceMapsEnabled(true); // stack traces in logs name the sources, not the bundle
  const { main } = await import(bundle);
  await main(process.argv);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  const { main } = await import('../cli/main.ts');
  await main(process.argv);
}
