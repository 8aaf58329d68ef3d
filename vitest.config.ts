import { defineConfig } from 'vitest/config';
import LongestFirst from './tests/setup/longest-first.js';

export default defineConfig({
  test: {
    include: ['engine/**/*.test.ts', 'server/**/*.test.ts', 'cli/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/**/*.test.ts'],
    reporters: ['default'],
    globalSetup: ['tests/setup/postgres.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // The slowest files first (tests/setup/file-durations.json): with more than one worker (vitest's default is the
    // cores less one: one on a 2-core machine; --maxWorkers=2 for two) no long file is left to run alone at the end.
    sequence: { sequencer: LongestFirst },
  },
});
