import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['engine/**/*.test.ts', 'server/**/*.test.ts', 'cli/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/**/*.test.ts'],
    reporters: ['default'],
    globalSetup: ['tests/setup/postgres.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
