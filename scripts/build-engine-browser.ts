// Builds every source module of engine/ for the browser (esbuild, platform browser, no Node shims, nothing
// external) and checks the bundle uses no Node global: the proof that the engine and the client seam run in a page.
// `npm run build:engine` prints the figures; tests/engine-browser-build.test.ts asserts them.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'esbuild';

const ROOT = join(import.meta.dirname, '..');
const ENGINE = join(ROOT, 'engine');

/** The engine's sources (tests, test helpers and fast-check arbitraries aside). */
export function engineSources(dir = ENGINE): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return engineSources(p);
    return /\.ts$/.test(name) && !/\.(test|d)\.ts$/.test(name) && !/^test-/.test(name) && name !== 'arbitraries.ts' ? [p] : [];
  });
}

export type EngineBuild = { modules: number; bytes: number; nodeGlobals: string[]; errors: string[] };

/** Words that betray Node in browser code: a shim or a leak would bring one of them in. */
const NODE_GLOBALS = /\b(require\(|process\.|Buffer\.|__dirname|__filename|node:[a-z_]+)/g;

/** Bundles `files` (every engine source by default; one entry, e.g. the local game host, to see what it pulls in). */
export async function buildEngineForBrowser(files: readonly string[] = engineSources()): Promise<EngineBuild> {
  const entry = files.map((f, i) => `export * as m${i} from './${relative(ROOT, f).replace(/\\/g, '/')}';`).join('\n');
  try {
    const r = await build({
      stdin: { contents: entry, resolveDir: ROOT, sourcefile: 'engine-entry.ts', loader: 'ts' },
      bundle: true, platform: 'browser', format: 'esm', target: 'es2022', write: false, minify: true, logLevel: 'silent',
      // No polyfills and no externals: an import of a Node built-in fails the build.
    });
    const text = r.outputFiles.map((o) => o.text).join('\n');
    return { modules: files.length, bytes: text.length, nodeGlobals: [...new Set(text.match(NODE_GLOBALS) ?? [])], errors: [] };
  } catch (e) {
    const errors = (e as { errors?: { text: string; location?: { file: string; line: number } | null }[] }).errors ?? [{ text: String(e) }];
    return { modules: files.length, bytes: 0, nodeGlobals: [], errors: errors.map((x) => `${x.location ? `${x.location.file}:${x.location.line}: ` : ''}${x.text}`) };
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await buildEngineForBrowser();
  process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
  if (r.errors.length || r.nodeGlobals.length) process.exitCode = 1;
}
