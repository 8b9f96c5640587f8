import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most test time is spent waiting (HTTP round trips, child processes, PostgreSQL, a browser):
    // vitest's default of one worker fewer than the cores leaves a 2-core machine running one file at a time.
    maxWorkers: 3,
    env: { TZ: 'UTC' },
    globalSetup: ['test/web/build-once.ts'],
  },
});
