import { describe, expect, it } from 'vitest';
import { parseDurations } from './test-durations.js';

describe('parseDurations', () => {
  it('takes each file line of a vitest run (coloured or not, passed or failed), in seconds, longest first', () => {
    const log = [
      ' \x1b[32m✓\x1b[39m tests/store.test.ts \x1b[2m(\x1b[22m91 tests\x1b[2m)\x1b[22m 24875ms',
      '     ✓ a test inside a file  1883ms',
      ' ❯ tests/e2e/game-voice.test.ts (6 tests | 1 failed | 1 skipped) 300955ms',
      ' ✓ engine/random.test.ts (1 test) 107ms',
      ' FAIL  tests/e2e/game-voice.test.ts > the game screen, spoken > fights',
    ].join('\n');
    const d = parseDurations(log);
    expect(d).toEqual({ 'tests/e2e/game-voice.test.ts': 301, 'tests/store.test.ts': 24.9, 'engine/random.test.ts': 0.1 });
    expect(Object.keys(d)).toEqual(['tests/e2e/game-voice.test.ts', 'tests/store.test.ts', 'engine/random.test.ts']);
  });

  it('finds nothing in a text with no file lines', () => {
    expect(parseDurations('Test Files  1 passed (1)\n   Duration  816.30s')).toEqual({});
  });
});
