/**
 * @fileoverview The server's rate limits and storage bounds (RATE_LIMIT_*, INGEST_*, MAX_*), read
 * by `loadConfig` (config.ts) only, through the integer reader it hands over, like
 * config-accounts.ts and config-sso.ts.
 */

/** Reads an integer variable with its default and bounds (config.ts checks and reports it). */
type ReadInt = (name: string, fallback: number, min: number, max: number) => number;

export interface LimitsConfig {
  readonly authPerMinute: number;
  readonly exchangePerMinute: number;
  readonly ingestPerMinute: number;
  readonly ingestBurst: number;
  readonly ingestMaxInflight: number;
  /** Link codes created plus device tokens issued, per user and minute. */
  readonly devicesPerMinute: number;
  /** Sign-up invites one admin may create a minute. */
  readonly invitesPerMinute: number;
  readonly mcpPerMinute: number;
  /** Live (not revoked) devices one user may have. */
  readonly maxDevicesPerUser: number;
  /** Personal API tokens one user may have (expired ones are deleted to make room). */
  readonly maxApiTokensPerUser: number;
  /** Most tokens (each of the six sums) one account may record on one UTC day. */
  readonly maxTokensPerUserDay: number;
  /** Most (source, model, project) buckets a device may store for one half-hour. */
  readonly maxBucketsPerHalfHour: number;
  /** Most raw buckets one account's devices (revoked ones too) may store in all. */
  readonly maxStoredBucketsPerUser: number;
  readonly bodyLimitBytes: number;
}

export function readLimits(int: ReadInt): LimitsConfig {
  return {
    authPerMinute: int('RATE_LIMIT_AUTH_PER_MINUTE', 30, 1, 1_000_000_000),
    exchangePerMinute: int('RATE_LIMIT_EXCHANGE_PER_MINUTE', 30, 1, 1_000_000_000),
    ingestPerMinute: int('INGEST_RATE_PER_MINUTE', 60, 1, 1_000_000_000),
    ingestBurst: int('INGEST_BURST', 20, 1, 1_000_000_000),
    ingestMaxInflight: int('INGEST_MAX_INFLIGHT', 64, 1, 100_000),
    devicesPerMinute: int('RATE_LIMIT_DEVICES_PER_MINUTE', 10, 1, 1_000_000_000),
    invitesPerMinute: int('RATE_LIMIT_INVITES_PER_MINUTE', 10, 1, 1_000_000_000),
    mcpPerMinute: int('RATE_LIMIT_MCP_PER_MINUTE', 120, 1, 1_000_000_000),
    maxDevicesPerUser: int('MAX_DEVICES_PER_USER', 50, 1, 1_000_000),
    maxApiTokensPerUser: int('MAX_API_TOKENS_PER_USER', 50, 1, 10_000),
    // The default, 10^13 a day, sums below 2^63 for over two thousand years of days; sums past
    // 64 bits are refused anyway (checked sums), whatever this is set to.
    maxTokensPerUserDay: int('INGEST_MAX_TOKENS_PER_USER_DAY', 10_000_000_000_000, 1_000_000, 9_000_000_000_000_000),
    maxBucketsPerHalfHour: int('INGEST_MAX_BUCKETS_PER_HALF_HOUR', 200, 10, 100_000),
    maxStoredBucketsPerUser: int('MAX_STORED_BUCKETS_PER_USER', 5_000_000, 1, 1_000_000_000_000),
    bodyLimitBytes: 1_048_576,
  };
}
