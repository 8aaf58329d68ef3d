import { defineConfig } from 'vitest/config';
import LongestFirst from './tests/setup/longest-first.js';

export default defineConfig({
  test: {
    include: ['engine/**/*.test.ts', 'web/src/**/*.test.ts', 'web/src/**/*.test.tsx', 'server/**/*.test.ts', 'cli/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/**/*.test.ts'],
    reporters: ['default'],
    globalSetup: ['tests/setup/postgres.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two files at a time even on 2 cores (vitest's default there is one): the browser and voice files spend most of
    // their time waiting on real-time audio, timers and sockets, not on the CPU.
    maxWorkers: 2,
    // The slowest files first (tests/setup/file-durations.json), so no long file is left to run alone at the end.
    sequence: { sequencer: LongestFirst },
  },
});
