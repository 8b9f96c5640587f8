/**
 * @fileoverview Runs the versioned migrations at start-up, on both engines. On PostgreSQL several
 * processes may start at once: Kysely's migrator takes a lock so only one applies them.
 */
import { Migrator, sql, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely';
import type { Db } from './connect.js';
import type { DialectName } from './dialect.js';
import { migration as m0001 } from './migrations/2026_11_22_0001_identity_and_usage.js';
import { migration as m0002 } from './migrations/2026_11_22_0002_analytics_read_models.js';
import { migration as m0003 } from './migrations/2026_11_22_0003_sharing_leaderboard_admin.js';
import { migration as m0004 } from './migrations/2026_11_23_0004_read_models_by_writers.js';
import { migration as m0005 } from './migrations/2026_11_23_0005_identity_revision.js';
import { migration as m0006 } from './migrations/2026_11_23_0006_leaderboard_refresh_lease.js';
import { migration as m0007 } from './migrations/2026_11_24_0007_instances.js';
import { migration as m0008 } from './migrations/2026_11_24_0008_ingest_events_by_device.js';
import { migration as m0009 } from './migrations/2026_11_24_0009_packed_usage_days.js';
import { migration as m0010 } from './migrations/2026_11_24_0010_repricing_in_background.js';
import { migration as m0011 } from './migrations/2026_11_25_0011_device_last_upload.js';
import { migration as m0012 } from './migrations/2026_11_25_0012_buckets_without_user.js';
import { migration as m0013 } from './migrations/2026_11_27_0013_buckets_by_device_number.js';
import { migration as m0014 } from './migrations/2026_11_27_0014_buckets_by_device_day.js';
import { migration as m0015 } from './migrations/2026_11_28_0015_session_authenticated_at.js';
import { migration as m0016 } from './migrations/2026_11_28_0016_api_tokens.js';
import { migration as m0017 } from './migrations/2026_11_28_0017_stored_buckets_per_user.js';
import { migration as m0018 } from './migrations/2026_11_28_0018_recovery_tokens.js';
import { migration as m0019 } from './migrations/2026_11_28_0019_single_sign_on.js';
import { migration as m0020 } from './migrations/2026_11_28_0020_accounts_for_groups.js';
import { migration as m0021 } from './migrations/2026_11_28_0021_teams.js';
import { migration as m0022 } from './migrations/2026_11_28_0022_budgets_and_webhooks.js';
import { migration as m0023 } from './migrations/2026_11_28_0023_otlp_receiver.js';
import { migration as m0024 } from './migrations/2026_11_28_0024_public_profiles.js';
import { migration as m0025 } from './migrations/2026_11_29_0025_usage_daily_by_day.js';
import { migration as m0026 } from './migrations/2026_11_29_0026_otlp_versions.js';
import { migration as m0027 } from './migrations/2026_11_29_0027_usage_blocks.js';
import { migration as m0028 } from './migrations/2026_11_29_0028_leaderboard_costs.js';
import { migration as m0029 } from './migrations/2026_11_29_0029_team_usage.js';
import { migration as m0030 } from './migrations/2026_11_29_0030_team_costs_and_spans.js';

/** Every migration in order; a new one is appended here and never edited afterwards. */
function allMigrations(dialect: DialectName): Record<string, Migration> {
  return {
    '2026_11_22_0001_identity_and_usage': m0001(dialect),
    '2026_11_22_0002_analytics_read_models': m0002(dialect),
    '2026_11_22_0003_sharing_leaderboard_admin': m0003(dialect),
    '2026_11_23_0004_read_models_by_writers': m0004(dialect),
    '2026_11_23_0005_identity_revision': m0005(dialect),
    '2026_11_23_0006_leaderboard_refresh_lease': m0006(),
    '2026_11_24_0007_instances': m0007(dialect),
    '2026_11_24_0008_ingest_events_by_device': m0008(),
    '2026_11_24_0009_packed_usage_days': m0009(dialect),
    '2026_11_24_0010_repricing_in_background': m0010(dialect),
    '2026_11_25_0011_device_last_upload': m0011(),
    '2026_11_25_0012_buckets_without_user': m0012(),
    '2026_11_27_0013_buckets_by_device_number': m0013(dialect),
    '2026_11_27_0014_buckets_by_device_day': m0014(dialect),
    '2026_11_28_0015_session_authenticated_at': m0015(),
    '2026_11_28_0016_api_tokens': m0016(),
    '2026_11_28_0017_stored_buckets_per_user': m0017(dialect),
    '2026_11_28_0018_recovery_tokens': m0018(),
    '2026_11_28_0019_single_sign_on': m0019(),
    '2026_11_28_0020_accounts_for_groups': m0020(),
    '2026_11_28_0021_teams': m0021(),
    '2026_11_28_0022_budgets_and_webhooks': m0022(),
    '2026_11_28_0023_otlp_receiver': m0023(),
    '2026_11_28_0024_public_profiles': m0024(),
    '2026_11_29_0025_usage_daily_by_day': m0025(),
    '2026_11_29_0026_otlp_versions': m0026(),
    '2026_11_29_0027_usage_blocks': m0027(dialect),
    '2026_11_29_0028_leaderboard_costs': m0028(dialect),
    '2026_11_29_0029_team_usage': m0029(dialect),
    '2026_11_29_0030_team_costs_and_spans': m0030(dialect),
  };
}

class InCodeProvider implements MigrationProvider {
  constructor(private readonly dialect: DialectName) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return allMigrations(this.dialect);
  }
}

/** Brings the schema to the latest version; throws with the failing migration's name. */
export async function migrateToLatest(db: Db): Promise<void> {
  await migrate(db, (migrator) => migrator.migrateToLatest());
}

/** Brings the schema up to the named migration (upgrade tests start from an older schema). */
export async function migrateUpTo(db: Db, name: string): Promise<void> {
  await migrate(db, (migrator) => migrator.migrateTo(name));
}

async function migrate(db: Db, run: (migrator: Migrator) => Promise<MigrationResultSet>): Promise<void> {
  // On PostgreSQL the migration tables are looked up in the connection's own schema: without it Kysely
  // takes another schema's kysely_migration_lock for this one's (several apps, one server, in tests).
  const schema =
    db.dialect === 'postgres'
      ? (await sql<{ name: string }>`select current_schema() as name`.execute(db.kysely)).rows[0]?.name
      : undefined;
  const migrator = new Migrator({
    db: db.kysely,
    provider: new InCodeProvider(db.dialect),
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  let { error, results } = await run(migrator);
  // Kysely 0.28's migrator finds its own tables by listing the tables and columns of every schema; a
  // schema that another app drops meanwhile, or a table it alters (test schemas on one server, each
  // migrating), fails that listing before any migration ran. Listing again is safe: nothing was applied.
  for (
    let attempt = 1;
    error && results === undefined && schema !== undefined && isDroppedMeanwhile(error, schema) && attempt <= 5;
    attempt++
  ) {
    ({ error, results } = await run(migrator));
  }
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${reason}`, { cause: error });
  }
}

/** An undefined-schema, -table or -column error about another schema than ours. */
function isDroppedMeanwhile(error: unknown, ownSchema: string): boolean {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : '';
  return (
    (code === '3F000' || code === '42P01' || code === '42703') &&
    !message.includes(`"${ownSchema}"`) &&
    !message.includes(`${ownSchema}.`)
  );
}
