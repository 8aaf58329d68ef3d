// The store's command-line and process edges: `looptale story import/export` run as the real command, and the PGlite
// data-directory lock between server processes (a second process, kill -9, a stale lock).
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { Story } from '../engine/story/format.js';
import { createDatabase } from '../scripts/pg-throwaway.js';
import { DataDirLockedError } from '../server/db/dir-lock.js';
import { openPglite } from '../server/db/pglite.js';

const ROOT = join(import.meta.dirname, '..');
const STORIES_DIR = join(ROOT, 'fixtures/stories');
const LANTERN_RAW = JSON.parse(readFileSync(join(STORIES_DIR, 'lantern-keeper/story.json'), 'utf8')) as unknown;
const LANTERN = Story.parse(LANTERN_RAW);

const tempDirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'looptale-store-'));
  tempDirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of tempDirs) rmSync(d, { recursive: true, force: true });
});

async function postgresUrl(): Promise<string> {
  const url = inject('pgUrl');
  if (!url) throw new Error(`These tests need PostgreSQL 15 (scripts/pg-throwaway.ts): ${inject('pgError')}`);
  return createDatabase(url, 'cli');
}

describe('looptale story import / export', () => {
  type Run = { code: number; stdout: string; stderr: string };
  const looptale = (...args: string[]): Promise<Run> => new Promise((resolve) => {
    execFile(process.execPath, ['bin/looptale.js', ...args], { cwd: ROOT, env: { ...process.env, DATABASE_URL: '' } }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
  const LANTERN_FILE = join(STORIES_DIR, 'lantern-keeper/story.json');

  it('imports a valid story into a data directory and exports it back unchanged', async () => {
    const dir = tempDir();
    const imported = await looptale('story', 'import', LANTERN_FILE, '--data-dir', dir);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain(`Imported "${LANTERN.name}" (${LANTERN.id})`);
    const out = join(dir, 'out.json');
    expect((await looptale('story', 'export', LANTERN.id, '--data-dir', dir, '--output', out)).code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(`${JSON.stringify(LANTERN_RAW, null, 2)}\n`);
    const missing = await looptale('story', 'export', '0c0c0c0c-0000-4000-8000-000000000404', '--data-dir', dir);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No story 0c0c0c0c-0000-4000-8000-000000000404');
  });

  it('imports a file as a new draft revision with --draft, publishing nothing', async () => {
    const dir = tempDir();
    expect((await looptale('story', 'import', LANTERN_FILE, '--data-dir', dir)).code).toBe(0);
    const edited = structuredClone(LANTERN_RAW) as { name: string };
    edited.name = `${LANTERN.name}, revised`;
    const file = join(dir, 'revised.json');
    writeFileSync(file, JSON.stringify(edited));
    const first = await looptale('story', 'import', file, '--draft', '--data-dir', dir);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`as revision 1 of the draft of "${edited.name}" (${LANTERN.id})`);
    // The draft holds the file: importing it again changes nothing; the published story is the first file still.
    const again = await looptale('story', 'import', file, '--draft', '--data-dir', dir);
    expect(again.stdout).toContain('nothing changed');
    const out = join(dir, 'out.json');
    expect((await looptale('story', 'export', LANTERN.id, '--data-dir', dir, '--output', out)).code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(`${JSON.stringify(LANTERN_RAW, null, 2)}\n`);
    const unknown = structuredClone(LANTERN_RAW) as { id: string };
    unknown.id = '0c0c0c0c-0000-4000-8000-000000000404';
    writeFileSync(file, JSON.stringify(unknown));
    const missing = await looptale('story', 'import', file, '--draft', '--data-dir', dir);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('import it once without --draft first');
  });

  it('refuses a story with errors, printing them', async () => {
    const dir = tempDir();
    const r = await looptale('story', 'import', join(STORIES_DIR, 'broken/story.json'), '--data-dir', dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('ref/unknown_moment');
    expect(r.stderr).toContain('not imported');
    expect((await looptale('story', 'import', LANTERN_FILE, '--data-dir', dir, '--database-url', 'postgres://x')).code).toBe(2);
  });

  it('imports into PostgreSQL with --database-url', async () => {
    const url = await postgresUrl();
    expect((await looptale('story', 'import', LANTERN_FILE, '--database-url', url)).code).toBe(0);
    const exported = await looptale('story', 'export', LANTERN.id, '--database-url', url);
    expect(exported.code).toBe(0);
    expect(JSON.parse(exported.stdout)).toEqual(LANTERN_RAW);
  });

  it("manages a story's authors and the admins (who may change its media)", async () => {
    const url = await postgresUrl();
    expect((await looptale('story', 'import', LANTERN_FILE, '--database-url', url)).code).toBe(0);
    const someone = '11111111-2222-4333-8444-555555555555';
    const added = await looptale('story', 'authors', LANTERN.id, '--add', someone, '--database-url', url);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain(`added: ${someone}`);
    expect(added.stdout).toMatch(new RegExp(`Authors of ${LANTERN.id}:\\n  ${someone}`));
    expect((await looptale('admins', '--add', someone, '--database-url', url)).stdout).toContain(`granted: ${someone}`);
    expect((await looptale('story', 'authors', LANTERN.id, '--remove', someone, '--database-url', url)).stdout).toContain('has no authors');
    const unknown = await looptale('story', 'authors', LANTERN.id, '--add', 'nobody@example.com', '--database-url', url);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No account with the email nobody@example.com');
    expect((await looptale('story', 'authors', '00000000-0000-4000-8000-000000000000', '--database-url', url)).code).toBe(1);
  });

  it("sets and shows a user's role: player by default, author, admin, back to player; one role at a time", async () => {
    const url = await postgresUrl();
    const someone = '22222222-3333-4444-8555-666666666666';
    const role = (...args: string[]) => looptale('user', 'role', someone, ...args, '--database-url', url);
    expect((await role()).stdout).toBe(`${someone}: player\n`);
    expect((await role('author')).stdout).toBe(`${someone}: author (was player)\n`);
    expect((await role('author')).stdout).toBe(`${someone}: author (unchanged)\n`);
    expect((await role('admin')).stdout).toBe(`${someone}: admin (was author)\n`);
    expect((await looptale('admins', '--database-url', url)).stdout).toContain(someone);
    expect((await role('player')).stdout).toBe(`${someone}: player (was admin)\n`);
    expect((await looptale('admins', '--database-url', url)).stdout).not.toContain(someone);
    const bad = await role('owner');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("Unknown role 'owner': choose one of player, author, admin.");
    expect((await role()).stdout).toBe(`${someone}: player\n`);
    const unknown = await looptale('user', 'role', 'nobody@example.com', 'author', '--database-url', url);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No account with the email nobody@example.com');
  });
});

describe('the PGlite data directory', () => {
  /** A second server process holding `dir` open: resolves once it has opened it and written a marker row. */
  function holder(dir: string): Promise<ChildProcess> {
    const script = join(tempDir(), 'hold.mts');
    writeFileSync(script, [
      `import { openPglite } from ${JSON.stringify(pathToFileURL(join(ROOT, 'server/db/pglite.ts')).href)};`,
      'const db = await openPglite(process.argv[2] ?? "");',
      "await db.query('CREATE TABLE marker (x int)');",
      "await db.query('INSERT INTO marker VALUES (1)');",
      "process.stdout.write('ready\\n');",
      'process.stdin.resume();',
      "process.stdin.on('end', () => { void db.close().then(() => process.exit(0)); });",
    ].join('\n'));
    const child = spawn(process.execPath, ['--import', 'tsx', script, dir], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
    return new Promise((resolve, reject) => {
      child.stdout.on('data', (b: Buffer) => {
        if (b.toString().includes('ready')) resolve(child);
      });
      child.on('exit', (code) => reject(new Error(`the holder process exited early (${code})`)));
    });
  }
  const exited = (child: ChildProcess): Promise<void> => new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

  it('is locked against a second server process, and taken over after that process is killed', async () => {
    const dir = tempDir();
    const child = await holder(dir);
    try {
      await expect(openPglite(dir)).rejects.toThrow(DataDirLockedError);
    } finally {
      child.kill('SIGKILL');
      await exited(child);
    }
    // kill -9 left the lock file behind; its owner is gone, so the next server takes over (and finds the data).
    expect(readFileSync(join(dir, 'looptale.lock'), 'utf8')).toBe(String(child.pid));
    const db = await openPglite(dir);
    try {
      expect((await db.query<{ x: number }>('SELECT x FROM marker')).rows).toEqual([{ x: 1 }]);
    } finally {
      await db.close();
    }
  });

  it('takes over a lock left by a process that died', async () => {
    const dir = tempDir();
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    expect(dead).toBeGreaterThan(0);
    writeFileSync(join(dir, 'looptale.lock'), String(dead));
    const db = await openPglite(dir);
    try {
      expect(readFileSync(join(dir, 'looptale.lock'), 'utf8')).toBe(String(process.pid));
      expect((await db.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await db.close();
    }
  });
});
