// Defect 11 of issue #14: `story validate` and `story import` crashed on hostile files and had no size limits: a
// 98 KB file nested 10,000 levels deep threw an uncaught RangeError and exited 1 (the code of "the story has
// errors"); 3 million unknown keys crashed the process after 12 s at 1.6 GB; a 50 MB description was accepted, after
// which /data/catalogue.json was 50 MB per request. Files now have limits with clear errors (exit 2 for unreadable
// input), texts have lengths, and the catalogue payload stays small.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer } from './helpers/server.js';

const ROOT = join(import.meta.dirname, '..');
const LANTERN_FILE = join(ROOT, 'fixtures/stories/lantern-keeper/story.json');
const dir = mkdtempSync(join(tmpdir(), 'looptale-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Run = { code: number; stdout: string; stderr: string; ms: number };
const looptale = (...args: string[]): Promise<Run> => new Promise((resolve) => {
  const t0 = Date.now();
  execFile(process.execPath, ['bin/looptale.js', ...args], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, DATABASE_URL: '' } }, (error, stdout, stderr) => {
    resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr, ms: Date.now() - t0 });
  });
});
const file = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

describe('defect 11: story files have limits, with clear errors', () => {
  it('a 98 KB file nested 10,000 levels deep is unreadable input (exit 2), for validate and import alike', async () => {
    const deep = file('deep.json', `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`);
    expect(readFileSync(deep).length).toBeGreaterThan(50_000);
    const v = await looptale('story', 'validate', deep);
    expect(v.code, v.stderr).toBe(2);
    expect(v.stderr).toMatch(/nested deeper than \d+ levels/);
    expect(v.stderr).not.toMatch(/RangeError|Maximum call stack/);
    const i = await looptale('story', 'import', deep, '--data-dir', join(dir, 'db-deep'));
    expect(i.code).toBe(2);
    expect(i.stderr).toMatch(/nested deeper than \d+ levels/);
  });

  it('refuses a file too large before reading it, and one with too many keys, quickly (exit 2)', async () => {
    const story = JSON.parse(readFileSync(LANTERN_FILE, 'utf8')) as Record<string, unknown>;
    const keys = file('keys.json', JSON.stringify({ ...story, junk: Object.fromEntries(Array.from({ length: 150_000 }, (_, k) => [`k${k}`, 0])) }));
    const r = await looptale('story', 'validate', keys);
    expect(r.code, r.stderr.slice(0, 300)).toBe(2);
    expect(r.stderr).toMatch(/more than [\d,]+ keys/);
    const huge = file('huge.json', `{"pad":"${'x'.repeat(6 * 1024 * 1024)}"}`);
    const h = await looptale('story', 'validate', huge);
    expect(h.code).toBe(2);
    expect(h.stderr).toMatch(/larger than 4 MB/);
  });

  it('a long description is a story error (exit 1), and the import refuses it', async () => {
    const story = JSON.parse(readFileSync(LANTERN_FILE, 'utf8')) as { catalogue: { description: { en: string } } };
    story.catalogue.description.en = 'x'.repeat(200_000);
    const long = file('long.json', JSON.stringify(story));
    const v = await looptale('story', 'validate', long);
    expect(v.code).toBe(1);
    expect(v.stdout).toMatch(/\$\.catalogue\.description\.en\s+schema\/too_big/);
    expect((await looptale('story', 'import', long, '--data-dir', join(dir, 'db-long'))).code).toBe(1);
    // A story file with thousands of problems prints a bounded report.
    const many = JSON.parse(readFileSync(LANTERN_FILE, 'utf8')) as Record<string, unknown>;
    const typos = file('typos.json', JSON.stringify({ ...many, ...Object.fromEntries(Array.from({ length: 5000 }, (_, k) => [`typo${k}`, 1])) }));
    const t = await looptale('story', 'validate', typos);
    expect(t.code).toBe(1);
    expect(t.stdout.split('\n').length).toBeLessThan(400);
    expect(t.stdout).toMatch(/and 4,?8\d\d more problems/);
  });

  it('the server does not seed a story with an oversized description, and /data/catalogue.json stays small', async () => {
    const stories = join(dir, 'stories');
    mkdirSync(stories);
    cpSync(join(ROOT, 'fixtures/stories/clockwork-siege'), join(stories, 'clockwork-siege'), { recursive: true });
    const story = JSON.parse(readFileSync(LANTERN_FILE, 'utf8')) as { catalogue: { description: { en: string } } };
    story.catalogue.description.en = 'x'.repeat(1_000_000);
    mkdirSync(join(stories, 'lantern-keeper'));
    writeFileSync(join(stories, 'lantern-keeper/story.json'), JSON.stringify(story));
    const srv = await startTestServer({ SEED_STORIES: 'true', STORIES_DIR: stories });
    try {
      const res = await fetch(`${srv.url}/data/catalogue.json`);
      const body = await res.text();
      expect((JSON.parse(body) as { stories: unknown[] }).stories).toHaveLength(1);
      expect(body.length).toBeLessThan(20_000);
      expect(srv.logs.some((l) => l.includes('story file does not parse: skipped') && l.includes('description'))).toBe(true);
    } finally {
      await srv.close();
    }
  });
});
