// `looptale story validate` and `looptale story graph`, run as the real command in a child process.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const BROKEN = 'fixtures/stories/broken/story.json';
const GOOD = ['fixtures/stories/lantern-keeper/story.json', 'fixtures/stories/clockwork-siege/story.json'];

type Run = { code: number; stdout: string; stderr: string };

function looptale(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/looptale.js', ...args], { cwd: ROOT }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

type Report = { files: { file: string; ok: boolean; problems: { severity: string; path: string; code: string; message: string }[] }[] };

describe('looptale story validate', () => {
  it('--json reports every problem of the broken story and exits 1', async () => {
    const r = await looptale('story', 'validate', BROKEN, '--json');
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.files).toHaveLength(1);
    const [file] = report.files;
    expect(file?.file).toBe(BROKEN);
    expect(file?.ok).toBe(false);
    const codes = new Set(file?.problems.map((p) => p.code));
    for (const code of [
      'schema/unknown_field', 'schema/missing_field', 'schema/invalid_type', 'id/not_uuid_v4', 'id/duplicate', 'ref/unknown_moment',
      'ref/unknown_character', 'ref/unknown_item', 'ref/unknown_place', 'answer/next_not_transition', 'moment/unreachable',
      'moment/no_transition', 'moment/cannot_complete', 'crossroad/no_branch', 'reward/none', 'battle/no_opponents',
      'upgrade/no_rules', 'assemble/no_size', 'story/no_epilogue', 'moment/no_epilogue', 'i18n/missing_fr',
      'battle/opponent_no_health', 'battle/no_battle_verbs', 'skip/never_shown', 'assemble/too_few_characters',
    ]) expect(codes, code).toContain(code);
    expect(file?.problems).toContainEqual({
      severity: 'error', path: '$.moments[2].transitions[1].next_moment_id', code: 'ref/unknown_moment',
      message: 'Transition 1 of moment "Fork" points to no moment: 0b000000-0000-4000-8000-000000000999.',
    });
  });

  it('prints each problem as path, code and message, grouped by file, with a summary line', async () => {
    const r = await looptale('story', 'validate', BROKEN, GOOD[0] ?? '');
    expect(r.code).toBe(1);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(BROKEN);
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}error {4}\$\.places\[1\]\.id +id\/duplicate +Id 0b000000-0000-4000-8000-0000000000e1 of place "Dock"/));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}warning {2}\$\.moments\[0\]\.name +i18n\/missing_fr +Text "Harbour Night"/));
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^${BROKEN}: failed \\(32 errors, 14 warnings\\)$`)));
    expect(lines[lines.length - 1]).toBe(`${GOOD[0]}: ok (0 errors, 0 warnings)`);
  });

  it('passes the fixture stories with exit code 0', async () => {
    const r = await looptale('story', 'validate', ...GOOD);
    expect(r.stderr).toBe('');
    expect(r.stdout.trimEnd().split('\n')).toEqual(GOOD.map((f) => `${f}: ok (0 errors, 0 warnings)`));
    expect(r.code).toBe(0);
  });

  it('exits 2 with a clear message for a missing file and for invalid JSON (with its position)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'looptale-cli-'));
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{\n  "format_version": 1,\n  "moments": [1, 2,]\n}\n');
    const r = await looptale('story', 'validate', bad, join(dir, 'missing.json'), GOOD[0] ?? '');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${bad} is not valid JSON: trailing comma before ']' at line 3, column 20`);
    expect(r.stderr).toContain(`cannot read ${join(dir, 'missing.json')}`);
    expect(r.stdout).toContain(`${GOOD[0]}: ok`);
    const json = await looptale('story', 'validate', bad, '--json');
    expect(json.code).toBe(2);
    const report = JSON.parse(json.stdout) as Report;
    expect(report.files[0]?.problems[0]).toMatchObject({ severity: 'error', path: '$', code: 'file/invalid_json' });
  });

  it('--help shows an example', async () => {
    const r = await looptale('story', 'validate', '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Examples:');
    expect(r.stdout).toContain('$ looptale story validate fixtures/stories/lantern-keeper/story.json');
  });
});

describe('looptale story graph', () => {
  it('prints a Mermaid graph of a story', async () => {
    const r = await looptale('story', 'graph', GOOD[0] ?? '', '--format', 'mermaid');
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith('flowchart TD\n')).toBe(true);
    const story = JSON.parse(readFileSync(join(ROOT, GOOD[0] ?? ''), 'utf8')) as { moments: { name: { en: string }; type: string }[] };
    for (const m of story.moments) expect(r.stdout).toContain(`"${m.name.en.replace(/"/g, '#34;')} (${m.type})"`);
  });

  it('writes a DOT graph in French to --output', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'looptale-cli-')), 'siege.dot');
    const r = await looptale('story', 'graph', GOOD[1] ?? '', '--format', 'dot', '--lang', 'fr', '--output', out);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    const dot = readFileSync(out, 'utf8');
    expect(dot).toMatch(/^digraph "/);
    const story = JSON.parse(readFileSync(join(ROOT, GOOD[1] ?? ''), 'utf8')) as { moments: { name: { fr?: string } }[] };
    expect(dot).toContain(`label="${story.moments[0]?.name.fr ?? ''}`);
  });

  it('exits 2 for a bad --format, a missing --format, and a file that does not match the format', async () => {
    expect((await looptale('story', 'graph', GOOD[0] ?? '', '--format', 'svg')).code).toBe(2);
    expect((await looptale('story', 'graph', GOOD[0] ?? '')).code).toBe(2);
    const broken = await looptale('story', 'graph', BROKEN, '--format', 'dot');
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('schema/unknown_field');
  });

  it('--help shows an example', async () => {
    const r = await looptale('story', 'graph', '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('$ looptale story graph fixtures/stories/lantern-keeper/story.json --format mermaid');
  });
});
