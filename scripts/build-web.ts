// Builds the web app into web/dist (Vite), then gzip and brotli copies of the text assets for the server to send
// as they are. `--if-stale` skips the build when web/dist was built from the same sources: `npm start` runs it, so
// `npm ci && npm start` always serves an up-to-date app and a second start costs a hash of the sources (~50 ms).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const ROOT = join(import.meta.dirname, '..');
const WEB = join(ROOT, 'web');
export const DIST = join(WEB, 'dist');
const STAMP = join(DIST, '.build-hash');
const COMPRESSIBLE = /\.(js|css|html|svg|json|map|txt|webmanifest)$/;

function files(dir: string, skip: (p: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (skip(p)) return [];
    return statSync(p).isDirectory() ? files(p, skip) : [p];
  }).sort();
}

/** A hash of everything the bundle is made from: the app, the engine it imports, the lock file and the config. */
export function sourceHash(): string {
  const h = createHash('sha256');
  const inputs = [
    ...files(WEB, (p) => p === DIST || p.endsWith('node_modules')),
    ...files(join(ROOT, 'engine'), (p) => /\.test\.ts$/.test(p)),
    join(ROOT, 'package-lock.json'),
  ];
  for (const f of inputs) {
    h.update(relative(ROOT, f));
    h.update(readFileSync(f));
  }
  return h.digest('hex');
}

export function isStale(): boolean {
  if (!existsSync(join(DIST, 'index.html')) || !existsSync(STAMP)) return true;
  return readFileSync(STAMP, 'utf8').trim() !== sourceHash();
}

/** Writes NAME.gz and NAME.br beside each text asset worth compressing. */
function precompress(): { files: number; bytes: number; gzip: number } {
  let n = 0;
  let bytes = 0;
  let gz = 0;
  for (const f of files(DIST, () => false)) {
    if (!COMPRESSIBLE.test(f)) continue;
    const raw = readFileSync(f);
    if (raw.length < 512) continue;
    const g = gzipSync(raw, { level: 9 });
    writeFileSync(`${f}.gz`, g);
    writeFileSync(`${f}.br`, brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }));
    n++;
    bytes += raw.length;
    gz += g.length;
  }
  return { files: n, bytes, gzip: gz };
}

export async function buildWeb(opts: { ifStale?: boolean; quiet?: boolean } = {}): Promise<{ built: boolean; ms: number }> {
  const t0 = performance.now();
  if (opts.ifStale && !isStale()) return { built: false, ms: 0 };
  const hash = sourceHash();
  const { build } = await import('vite');
  // Production whatever NODE_ENV the builder runs under (vitest sets 'test', which would ship React's dev build).
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: join(WEB, 'vite.config.ts'), mode: 'production', logLevel: opts.quiet ? 'warn' : 'info' });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  const c = precompress();
  writeFileSync(STAMP, `${hash}\n`);
  const ms = Math.round(performance.now() - t0);
  if (!opts.quiet) process.stderr.write(`web: built web/dist in ${ms} ms (${c.files} files precompressed, ${Math.round(c.bytes / 1024)} KB -> ${Math.round(c.gzip / 1024)} KB gzip)\n`);
  return { built: true, ms };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const ifStale = process.argv.includes('--if-stale');
  const r = await buildWeb({ ifStale });
  if (!r.built) process.stderr.write('web: web/dist is up to date\n');
}
