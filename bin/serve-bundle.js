// A prebuilt bundle of the CLI for `looptale serve`: our TypeScript compiled once by esbuild into .cache/serve-bundle/
// (packages stay in node_modules), so that a start or a restart does not compile and load ~250 modules through tsx.
// At ~2.5 s of CPU per restart, tsx was ~0.8 s of it (#14: the kill -9 load run; `npm start`).
// bin/looptale.js runs `serve` from the bundle only when it is fresh: every source file it was built from is unchanged
// since the build (a missing, edited or newly imported file makes it stale: an import is added by editing a file
// that is in it). Otherwise, or with LOOPTALE_BUNDLE=0, tsx runs the sources as before. Built by `npm start`, by
// `npm run build:server`, and by `looptale load --spawn-server`; never by a plain `looptale serve`.
//   node bin/serve-bundle.js [--if-stale] [--root <dir>]   build (again, unless --if-stale finds it fresh)
//   node bin/serve-bundle.js --check [--root <dir>]        exit 0 when fresh, 1 when stale or missing
// Plain JavaScript: bin/looptale.js checks freshness before tsx is loaded.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = 'cli/main.ts';
/** Builds older than this are removed by the next build (not at once: a server still running one loads chunks lazily). */
const KEEP_OLD_MS = 24 * 3600 * 1000;

/** @param {string} root */
const cacheDir = (root) => join(root, '.cache', 'serve-bundle');

/**
 * The bundle's entry module when the bundle is fresh, else null.
 * @param {string} [root]
 * @returns {string | null}
 */
export function freshServeBundle(root = ROOT) {
  /** @type {{ dir: string, entry: string, built_at_ms: number, inputs: string[] }} */
  let m;
  try {
    m = JSON.parse(readFileSync(join(cacheDir(root), 'current.json'), 'utf8'));
  } catch {
    return null;
  }
  const entry = join(cacheDir(root), m.dir, m.entry);
  if (!Array.isArray(m.inputs) || m.inputs.length === 0 || !existsSync(entry)) return null;
  for (const input of m.inputs) {
    try {
      if (statSync(join(root, input)).mtimeMs > m.built_at_ms) return null;
    } catch {
      return null;
    }
  }
  return entry;
}

/**
 * esbuild, with import.meta.url / dirname / filename of each source file written in as that file's own location: the
 * bundle lives elsewhere, and the sources find workers, migrations and package.json relative to themselves.
 * @param {string} [root]
 * @returns {Promise<string>} the entry module
 */
export async function buildServeBundle(root = ROOT) {
  const { build } = await import('esbuild');
  const builtAt = Date.now() - 50; // a file saved during the build makes it stale (mtimes come from a coarse clock)
  const name = `b-${builtAt}-${process.pid}`;
  const out = join(cacheDir(root), name);
  const result = await build({
    absWorkingDir: root, entryPoints: [ENTRY], outdir: out, bundle: true, splitting: true, format: 'esm', platform: 'node',
    target: 'node20', packages: 'external', metafile: true, sourcemap: 'linked', logLevel: 'error', entryNames: '[name]',
    plugins: [{
      name: 'import-meta-of-source',
      setup(b) {
        b.onLoad({ filter: /\.(ts|tsx|js|mjs)$/ }, async (a) => {
          if (a.path.includes('/node_modules/')) return undefined;
          const text = await readFile(a.path, 'utf8');
          if (!text.includes('import.meta')) return undefined;
          const contents = text
            .replaceAll('import.meta.dirname', JSON.stringify(dirname(a.path)))
            .replaceAll('import.meta.filename', JSON.stringify(a.path))
            .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(a.path).href));
          const loader = a.path.endsWith('.tsx') ? 'tsx' : a.path.endsWith('.ts') ? 'ts' : 'js';
          return { contents, loader, resolveDir: dirname(a.path) };
        });
      },
    }],
  });
  const inputs = Object.keys(result.metafile.inputs).filter((p) => !p.includes('node_modules/')).map((p) => relative(root, resolve(root, p)));
  const manifest = { dir: name, entry: 'main.js', built_at_ms: builtAt, inputs };
  const tmp = join(cacheDir(root), `current.json.${process.pid}`);
  writeFileSync(tmp, `${JSON.stringify(manifest)}\n`);
  renameSync(tmp, join(cacheDir(root), 'current.json'));
  for (const d of readdirSync(cacheDir(root))) {
    const m = /^b-(\d+)-\d+$/.exec(d);
    if (m && d !== name && Date.now() - Number(m[1]) > KEEP_OLD_MS) rmSync(join(cacheDir(root), d), { recursive: true, force: true });
  }
  return join(out, 'main.js');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--root');
  const root = at >= 0 && args[at + 1] ? resolve(args[at + 1]) : ROOT;
  if (args.includes('--check')) process.exit(freshServeBundle(root) ? 0 : 1);
  if (args.includes('--if-stale') && freshServeBundle(root)) process.exit(0);
  let r;
  try {
    mkdirSync(cacheDir(root), { recursive: true });
    r = { entry: await buildServeBundle(root) };
  } catch (e) {
    r = { entry: null, error: e instanceof Error ? e.message : String(e) };
  }
  if (!r.entry) {
    // Not fatal: `looptale serve` runs the sources through tsx.
    process.stderr.write(`serve bundle not built (${r.error ?? 'unknown error'}); looptale serve will run the sources through tsx\n`);
    process.exit(0);
  }
  process.stdout.write(`serve bundle: ${relative(process.cwd(), r.entry)}\n`);
}
