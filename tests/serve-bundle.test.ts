// #14, kill -9 load run: a restart spent ~0.8 s of its ~2.5 s of CPU compiling our sources through tsx. `looptale serve`
// now runs from a prebuilt bundle (bin/serve-bundle.js) when it is fresh. These check, on a tiny project in a temp
// folder, that a bundle is only used while it matches the sources, and that bundled code still finds files relative
// to its own source file (workers, migrations, package.json are found that way). ~1-3 s (esbuild).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const SCRIPT = join(import.meta.dirname, '../bin/serve-bundle.js');
const root = mkdtempSync(join(tmpdir(), 'looptale-serve-bundle-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const bundle = (...args: string[]): { status: number | null; out: string } => {
  const r = spawnSync(process.execPath, [SCRIPT, '--root', root, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
};
const fresh = (): boolean => bundle('--check').status === 0;
const builtAt = (): number => (JSON.parse(readFileSync(join(root, '.cache/serve-bundle/current.json'), 'utf8')) as { built_at_ms: number }).built_at_ms;
const WHERE = 'export const here: string = import.meta.dirname;\nexport const url: string = import.meta.url;\n';
/** Written a while ago: a file saved just before a build counts as newer than it (mtimes come from a coarse clock). */
const writeOld = (file: string, text: string): void => {
  writeFileSync(join(root, file), text);
  const t = new Date(Date.now() - 60_000);
  utimesSync(join(root, file), t, t);
};

describe('the serve bundle', () => {
  mkdirSync(join(root, 'cli'), { recursive: true });
  mkdirSync(join(root, 'server/db'), { recursive: true });
  writeOld('server/db/where.ts', WHERE);
  writeOld('cli/main.ts', "import { here, url } from '../server/db/where.js';\nexport function main(): string { return JSON.stringify({ here, url }); }\n");

  it('is used only while every source it was built from is unchanged', () => {
    expect(fresh()).toBe(false); // none built
    const built = bundle();
    expect(built.out).toContain('serve bundle:');
    expect(fresh()).toBe(true);
    expect(bundle('--if-stale').out).toBe(''); // fresh: not built again

    const after = new Date(builtAt() + 1);
    utimesSync(join(root, 'server/db/where.ts'), after, after); // edited after the build
    expect(fresh()).toBe(false);
    bundle('--if-stale');
    expect(fresh()).toBe(true);

    rmSync(join(root, 'server/db/where.ts')); // a source gone
    expect(fresh()).toBe(false);
    writeOld('server/db/where.ts', WHERE);
  });

  it('gives bundled code the location of its own source file', () => {
    bundle();
    const entry = spawnSync(process.execPath, ['--input-type=module', '-e',
      `import { pathToFileURL } from 'node:url'; import { freshServeBundle } from ${JSON.stringify(SCRIPT)};
       const m = await import(pathToFileURL(freshServeBundle(${JSON.stringify(root)})).href); process.stdout.write(m.main());`], { encoding: 'utf8', timeout: 60_000 });
    expect(entry.stderr).toBe('');
    const got = JSON.parse(entry.stdout) as { here: string; url: string };
    expect(got.here).toBe(join(root, 'server/db'));
    expect(got.url).toBe(`file://${join(root, 'server/db/where.ts')}`);
  });
});
