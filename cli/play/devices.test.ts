// --mic and reply playback pick an installed recorder and player from PATH without running anything.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { detectPlayer } from './audio-out.js';
import { detectRecorder, MIC_INSTALL_HINT, requireRecorder } from './mic.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
function pathWith(...names: string[]): string {
  const d = mkdtempSync(join(tmpdir(), 'looptale-path-'));
  dirs.push(d);
  for (const n of names) {
    writeFileSync(join(d, n), '#!/bin/sh\n');
    chmodSync(join(d, n), 0o755);
  }
  return d;
}

it('prefers arecord, then sox rec; mpg123, ffplay, afplay, then aplay', () => {
  expect(detectRecorder(pathWith('rec'))).toBe('rec');
  expect(detectRecorder([pathWith('rec'), pathWith('arecord')].join(delimiter))).toBe('arecord');
  expect(detectPlayer(pathWith('aplay', 'ffplay'))).toBe('ffplay');
  expect(detectPlayer(pathWith('aplay'))).toBe('aplay');
});

it('says how to install a recorder when there is none, and finds nothing in an empty PATH', () => {
  const empty = pathWith();
  expect(detectRecorder(empty)).toBeNull();
  expect(detectPlayer(empty)).toBeNull();
  expect(() => requireRecorder(empty)).toThrow(MIC_INSTALL_HINT);
  // A file that is not executable does not count.
  const d = pathWith();
  writeFileSync(join(d, 'mpg123'), '');
  expect(detectPlayer(d)).toBeNull();
});
