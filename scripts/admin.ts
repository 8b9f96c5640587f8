/**
 * @fileoverview `npm run admin -- <command>`: opens the configured database (same environment as the
 * server), builds the app with scheduled jobs off, runs one command and exits. See src/admin/commands.ts.
 */
import { createApp } from '../src/app.js';
import { describeDatabase, runAdminCommand } from '../src/admin/commands.js';
import { systemClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/connect.js';
import { createLogger } from '../src/logger.js';
import { pino } from 'pino';

async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, JOBS_ENABLED: 'false' });
  const logger = createLogger(process.env.LOG_LEVEL ?? 'warn', pino.destination(2));
  process.stderr.write(`${describeDatabase(config.database)}\n`);
  const db = await openDatabase(config.database);
  const built = await createApp({ config, db, clock: systemClock, logger });
  try {
    const result = await runAdminCommand({ built, db, clock: systemClock }, process.argv.slice(2));
    (result.exitCode === 0 ? process.stdout : process.stderr).write(result.output.endsWith('\n') ? result.output : `${result.output}\n`);
    process.exitCode = result.exitCode;
  } finally {
    await built.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
