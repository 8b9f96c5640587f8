import { defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from './test/sequencer.js';

/**
 * Tests whose outcome does not depend on the engine: they open no database (pure rules, prices, the
 * CLI's readers against a fake server, SVG drawing), or only a SQLite file, or drive the dashboard
 * in a browser. The PostgreSQL pass (TEST_DATABASE_URL set) leaves them to the SQLite pass instead of
 * running them a second time, which keeps CI well under its 30 minutes.
 */
const ENGINE_FREE = [
  'test/domain/**',
  'test/pricing/**',
  'test/cli/parsers/**',
  'test/cli/{engine,hooks,units,sync-upload,plain-http,report,browser-link,otlp-exporters}.test.ts',
  'test/cli/*.property.test.ts',
  'test/browser/**',
  'test/web/lib.test.ts',
  'test/jobs/{pricing-sync,schedule}.test.ts',
  // The map's check reads files only.
  'test/scripts/**',
  // SQLite files whatever the pass: the WAL checkpoints beside the writer thread.
  'test/ingest/checkpoints.test.ts',
  // The dashboard in a browser: what the pages do with the server's answers. Those answers are the
  // HTTP tests' subject on both engines; the browser runs, the slowest files by far, run once.
  'test/web/*.browser.test.ts',
];

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...(process.env['TEST_DATABASE_URL'] ? ENGINE_FREE : [])],
    // Generous: on two cores shared by three test files, PostgreSQL and a browser, a heavy test can be
    // starved for a while; a time-out here is a failure to finish, never a speed check.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most test time is spent waiting (HTTP round trips, child processes, PostgreSQL, a browser):
    // vitest's default of one worker fewer than the cores leaves a 2-core machine running one file at a time.
    maxWorkers: 3,
    env: { TZ: 'UTC' },
    globalSetup: ['test/web/build-once.ts'],
    // The longest files first (test/sequencer.ts): a long file started last would end the pass alone.
    sequence: { sequencer: LongestFirstSequencer },
  },
});
