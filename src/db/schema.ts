/**
 * @fileoverview The tables, as Kysely sees them. Every integer column is a 64-bit integer that
 * reads back as `bigint` on both engines (better-sqlite3 safeIntegers; pg int8/numeric parsers),
 * so token sums stay exact. Instants are epoch milliseconds.
 */
import type { ColumnType, Insertable, Selectable } from 'kysely';
import type { SsoCodesTable, SsoFlowsTable, UserIdentitiesTable } from './schema-sso.js';
import type {
  DeviceSourceChannelsTable,
  OtlpSeenTable,
  OtlpSeriesTable,
  OtlpSumsTable,
  OtlpVersionsTable,
} from './schema-otlp.js';

/** A 64-bit integer column: read as bigint, written as number or bigint. */
export type Int = ColumnType<bigint, bigint | number, bigint | number>;
export type NullableInt = ColumnType<bigint | null, bigint | number | null | undefined, bigint | number | null>;
/** A not-null integer with a default: may be left out of an insert. */
export type DefaultedInt = ColumnType<bigint, bigint | number | undefined, bigint | number>;

export * from './schema-accounts.js';
export * from './schema-notifications.js';
import type {
  BudgetAlertsTable,
  BudgetsTable,
  WebhookAttemptsTable,
  WebhookMessagesTable,
  WebhooksTable,
} from './schema-notifications.js';
export * from './schema-teams.js';
import type {
  TeamInvitesTable,
  TeamMembersTable,
  TeamsTable,
  TeamUsageDailyTable,
  TeamUsageRollupTable,
  TeamUsageSpansTable,
} from './schema-teams.js';
import type {
  LeaderboardFamilyColumns,
  LeaderboardUserWeeksTable,
  LeaderboardUserMonthsTable,
  LeaderboardRunsTable,
  LeaderboardGenerationsTable,
  LeaderboardRefreshLeaseTable,
  LeaderboardCurrentTable,
  LeaderboardEntriesTable,
  LeaderboardMembersTable,
} from './schema-leaderboard.js';
import type {
  ApiTokensTable,
  DevicesTable,
  DeviceTokensTable,
  InstanceSettingsTable,
  InvitesTable,
  LinkCodesTable,
  RecoveryTokensTable,
  RefreshTokensTable,
  UsersTable,
} from './schema-accounts.js';

/** The five counts and the billable figure, shared by the usage tables. */
export interface TokenColumns {
  input: Int;
  cached_input: Int;
  output: Int;
  reasoning: Int;
  total: Int;
  billable: Int;
}

/**
 * Raw buckets: one row per (device, UTC epoch day), its buckets packed in `buckets`
 * (domain/device-day-buckets.ts; migration 0014).
 */
export interface UsageDeviceDaysTable {
  /** `devices.num` of the buckets' device (migration 0013). */
  device_num: Int;
  /** UTC epoch day. */
  day: Int;
  buckets: string;
  /** When an upload last changed the day. */
  updated_at: Int;
}

/** Read model kept inside the ingest transaction: sums across devices and projects. */
export interface UsageRollupTable extends TokenColumns {
  user_id: string;
  hour_start: Int;
  source: string;
  model: string;
}

/** Analytics read model (kept by the ingest writers from usage_rollup deltas): sums per user, UTC epoch day, source and model. */
export interface UsageDailyTable extends TokenColumns {
  user_id: string;
  /** UTC epoch day (hour_start / 86,400,000). */
  day: Int;
  source: string;
  model: string;
  /** Cost of the row's counts at that day's price, truncated to micro-dollars (kept by the ingest writers and repricing). */
  cost_micros: ColumnType<bigint, bigint | number | undefined, bigint | number>;
}

/**
 * `usage_daily` summed per block of 16 UTC days (block = floor(day / 16), days from 1970 on): counts
 * and stored costs, kept by everything that writes `usage_daily` (migration 0027).
 */
export interface UsageBlocksTable extends TokenColumns {
  user_id: string;
  block: Int;
  source: string;
  model: string;
  cost_micros: ColumnType<bigint, bigint | number | undefined, bigint | number>;
}

/** Analytics read model (kept by the ingest writers): a user's UTC day, its sums and half-hours packed in one text (domain/day-slots.ts). */
export interface UsageDaysTable {
  user_id: string;
  /** UTC epoch day. */
  day: Int;
  counts: string;
}

/**
 * Each account's count of stored raw buckets (its devices' packed `usage_device_days`, revoked
 * devices' too), kept by the ingest writers for MAX_STORED_BUCKETS_PER_USER (migration 0017).
 */
export interface UserStorageTable {
  user_id: string;
  stored_buckets: Int;
}

/** Read model kept inside the ingest transaction: all-time totals per project and source. */
export interface ProjectUsageTable extends TokenColumns {
  user_id: string;
  project_key: string;
  source: string;
  project_ref: string | null;
  updated_at: Int;
}

export interface DeviceSubscriptionsTable {
  device_id: string;
  position: Int;
  user_id: string;
  tool: string | null;
  provider: string | null;
  product: string | null;
  plan_type: string | null;
  rate_limit_tier: string | null;
  /** The subscription object as uploaded (JSON text), for fields we do not model. */
  details: string;
  updated_at: Int;
}

/** One row per upload: the "tracker events" purgeEvents prunes. */
export interface IngestEventsTable {
  id: ColumnType<bigint, never, never>;
  device_id: string;
  user_id: string;
  bucket_count: Int;
  inserted: Int;
  skipped: Int;
  created_at: Int;
}

/** Facts about the derived read models, by name (e.g. which price data priced `usage_daily.cost_micros`). */
export interface ReadModelStateTable {
  name: string;
  value: string;
  updated_at: Int;
}

/** One row (id 1): moves whenever a user's public name, avatar or visibility may have changed (migration 0005). */
export interface IdentityRevisionTable {
  id: number;
  revision: Int;
}

export interface ServerSecretsTable {
  name: string;
  value: string;
  created_at: Int;
}

/** One row per user who ever turned public visibility on; live while `revoked_at` is null. */
export interface PublicViewsTable {
  user_id: string;
  /** SHA-256 of the live share token; null once revoked. */
  token_hash: string | null;
  /** Random per-enable value the share token is derived from (HMAC under a server key). */
  token_nonce: string | null;
  created_at: Int;
  updated_at: Int;
  revoked_at: NullableInt;
}

export interface RateLimitBucketsTable {
  name: string;
  key: string;
  tokens: number;
  updated_at: Int;
  asked: number;
  granted: number;
}

export interface JobClaimsTable {
  name: string;
  started_at: Int;
  holder: string;
}

/** Price data fetched by syncPricing (PostgreSQL keeps it here; SQLite in DATA_DIR). */
export interface PricingDataTable {
  id: Int;
  source: string;
  effective_from: string;
  data: string;
  fetched_at: Int;
}

/** A price data set stored costs were or are being priced by, under its fingerprint (migration 0010). */
export interface PriceSnapshotsTable {
  fingerprint: string;
  source: string;
  effective_from: string;
  /** The providers, as JSON text. */
  data: string;
  saved_at: Int;
}

/** A repricing's new costs, with the counts they priced (migration 0010): swapped into `usage_daily` at its end. */
export interface UsageDailyRepricedTable {
  user_id: string;
  day: Int;
  source: string;
  model: string;
  input: Int;
  cached_input: Int;
  output: Int;
  reasoning: Int;
  cost_micros: Int;
}

/** At most one row (id 1), while a repricing of the stored costs runs (migration 0010). */
export interface RepricingTable {
  id: number;
  /** Fingerprint of the data the stored costs are being moved to. */
  target: string;
  /** Users up to this id (in order) are repriced. */
  after_user: string;
  rows_done: Int;
  started_at: Int;
  /** The process running it, and until when (a lease another process may take once it ran out). */
  holder: string | null;
  lease_until: Int;
}

/** A pro grant; active while not revoked and not expired. */
export interface EntitlementsTable {
  id: string;
  user_id: string;
  source: string;
  granted_at: Int;
  expires_at: NullableInt;
  revoked_at: NullableInt;
}

/** A public profile's handle and public fields (migration 0024). */
export interface PublicProfilesTable {
  user_id: string;
  handle: string | null;
  fields: string;
  updated_at: Int;
}

export interface Database {
  users: UsersTable;
  refresh_tokens: RefreshTokensTable;
  sso_flows: SsoFlowsTable;
  sso_codes: SsoCodesTable;
  device_source_channels: DeviceSourceChannelsTable;
  otlp_sums: OtlpSumsTable;
  otlp_series: OtlpSeriesTable;
  otlp_seen: OtlpSeenTable;
  otlp_versions: OtlpVersionsTable;
  user_identities: UserIdentitiesTable;
  devices: DevicesTable;
  device_tokens: DeviceTokensTable;
  api_tokens: ApiTokensTable;
  recovery_tokens: RecoveryTokensTable;
  link_codes: LinkCodesTable;
  usage_device_days: UsageDeviceDaysTable;
  usage_rollup: UsageRollupTable;
  usage_daily: UsageDailyTable;
  usage_blocks: UsageBlocksTable;
  usage_days: UsageDaysTable;
  user_storage: UserStorageTable;
  project_usage: ProjectUsageTable;
  device_subscriptions: DeviceSubscriptionsTable;
  ingest_events: IngestEventsTable;
  server_secrets: ServerSecretsTable;
  read_model_state: ReadModelStateTable;
  identity_revision: IdentityRevisionTable;
  public_views: PublicViewsTable;
  public_profiles: PublicProfilesTable;
  leaderboard_user_weeks: LeaderboardUserWeeksTable;
  leaderboard_user_months: LeaderboardUserMonthsTable;
  leaderboard_user_totals: LeaderboardFamilyColumns;
  leaderboard_runs: LeaderboardRunsTable;
  leaderboard_generations: LeaderboardGenerationsTable;
  leaderboard_current: LeaderboardCurrentTable;
  leaderboard_refresh_lease: LeaderboardRefreshLeaseTable;
  leaderboard_entries: LeaderboardEntriesTable;
  leaderboard_members: LeaderboardMembersTable;
  pricing_data: PricingDataTable;
  price_snapshots: PriceSnapshotsTable;
  usage_daily_repriced: UsageDailyRepricedTable;
  repricing: RepricingTable;
  entitlements: EntitlementsTable;
  rate_limit_buckets: RateLimitBucketsTable;
  job_claims: JobClaimsTable;
  instance_settings: InstanceSettingsTable;
  invites: InvitesTable;
  budgets: BudgetsTable;
  budget_alerts: BudgetAlertsTable;
  webhooks: WebhooksTable;
  webhook_messages: WebhookMessagesTable;
  webhook_attempts: WebhookAttemptsTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  team_usage_rollup: TeamUsageRollupTable;
  team_usage_spans: TeamUsageSpansTable;
  team_usage_daily: TeamUsageDailyTable;
  team_invites: TeamInvitesTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type DeviceRow = Selectable<DevicesTable>;
export type LinkCodeRow = Selectable<LinkCodesTable>;
export type RefreshTokenRow = Selectable<RefreshTokensTable>;
export type InviteRow = Selectable<InvitesTable>;
export type SsoFlowRow = Selectable<SsoFlowsTable>;
export type SsoCodeRow = Selectable<SsoCodesTable>;
