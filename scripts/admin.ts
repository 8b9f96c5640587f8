/**
 * @fileoverview `npm run admin -- <command>`: opens the configured database (same environment as the
 * server), runs one command and exits. The app (with scheduled jobs off) is imported and built only
 * when the command needs it, so the other commands answer in a fraction of a second. See
 * src/admin/commands.ts.
 */
import type { TokentallyApp } from '../src/app.js';
import { describeDatabase, runAdminCommand } from '../src/admin/commands.js';
import { systemClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { resolveSecrets } from '../src/security/secrets.js';
import { createLogger } from '../src/logger.js';
import { pino } from 'pino';

async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, JOBS_ENABLED: 'false' });
  const logger = createLogger(process.env.LOG_LEVEL ?? 'warn', pino.destination(2));
  process.stderr.write(`${describeDatabase(config.database)}\n`);
  const db = await openDatabase(config.database);
  let built: Promise<TokentallyApp> | undefined;
  const app = (): Promise<TokentallyApp> =>
    (built ??= import('../src/app.js').then(({ createApp }) => createApp({ config, db, clock: systemClock, logger })));
  try {
    await migrateToLatest(db);
    const secrets = async () => (built ? (await built).secrets : resolveSecrets(config, db, systemClock.now()));
    const result = await runAdminCommand({ app, secrets, db, clock: systemClock }, process.argv.slice(2));
    (result.exitCode === 0 ? process.stdout : process.stderr).write(
      result.output.endsWith('\n') ? result.output : `${result.output}\n`,
    );
    process.exitCode = result.exitCode;
  } finally {
    // The app closes the database with its server; without one, the database is closed here.
    if (built) await (await built).close();
    else await db.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
