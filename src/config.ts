/**
 * @fileoverview Every setting of the server, read from the environment in one place, validated
 * once and frozen. Nothing else in the code base reads `process.env`.
 */
import path from 'node:path';

export type DatabaseConfig =
  | { readonly kind: 'sqlite'; readonly file: string; readonly busyTimeoutMs: number }
  | { readonly kind: 'postgres'; readonly url: string; readonly schema?: string; readonly poolSize: number };

export interface Config {
  readonly host: string;
  readonly port: number;
  /** Server processes sharing the port (node cluster); 1 serves from this process alone. */
  readonly processes: number;
  readonly dataDir: string;
  readonly database: DatabaseConfig;
  readonly logLevel: string;
  /** Secrets; `undefined` means "generate once and keep" (see security/secrets.ts). */
  readonly secrets: {
    readonly serviceRoleKey: string | undefined;
    readonly jwtSecret: string | undefined;
    readonly anonKey: string | undefined;
  };
  readonly auth: {
    readonly accessTokenTtlSeconds: number;
    readonly refreshTokenTtlSeconds: number;
    /** scrypt cost parameter N (a power of two); tests lower it. */
    readonly scryptCost: number;
    readonly jwksUrl: string | undefined;
    readonly issuer: string | undefined;
    readonly audience: string | undefined;
  };
  readonly limits: {
    readonly authPerMinute: number;
    readonly exchangePerMinute: number;
    readonly ingestPerMinute: number;
    readonly ingestBurst: number;
    readonly ingestMaxInflight: number;
    readonly maxBucketsPerUpload: number;
    readonly bodyLimitBytes: number;
  };
  readonly linkCodeTtlSeconds: number;
  readonly syncMinIntervalMinutes: number;
  readonly leaderboardRefreshSeconds: number;
  readonly pricingSourceUrl: string;
  /** Scheduled jobs run only when true; tests switch them off. */
  readonly jobsEnabled: boolean;
  /** Trust X-Forwarded-For from a reverse proxy when computing the client address. */
  readonly trustProxy: boolean;
}

/** How long a SQLite write waits for another process's write lock by default (SQLITE_BUSY_TIMEOUT_MS). */
export const DEFAULT_SQLITE_BUSY_TIMEOUT_MS = 5000;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Readonly<Record<string, string | undefined>>;

function str(env: Env, name: string, fallback: string): string {
  const value = env[name];
  return value === undefined || value === '' ? fallback : value;
}

function optional(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^-?\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

export const DEFAULT_PRICING_SOURCE_URL =
  'https://raw.githubusercontent.com/pydantic/genai-prices/main/prices/data.json';

/** Parses the environment into a frozen Config, failing with the variable's name. */
export function loadConfig(env: Env = process.env): Config {
  const dataDir = path.resolve(str(env, 'DATA_DIR', './data'));
  const databaseUrl = optional(env, 'DATABASE_URL');
  let database: DatabaseConfig;
  if (databaseUrl === undefined || databaseUrl.startsWith('sqlite:') || databaseUrl.startsWith('file:')) {
    const file = databaseUrl ? databaseUrl.replace(/^(sqlite|file):(\/\/)?/, '') : path.join(dataDir, 'tokentally.db');
    database = { kind: 'sqlite', file, busyTimeoutMs: int(env, 'SQLITE_BUSY_TIMEOUT_MS', DEFAULT_SQLITE_BUSY_TIMEOUT_MS, 0, 600_000) };
  } else if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    database = { kind: 'postgres', url: databaseUrl, poolSize: int(env, 'DATABASE_POOL_SIZE', 10, 1, 200) };
  } else {
    throw new ConfigError('DATABASE_URL must be a postgres:// URL (or unset for the embedded SQLite database)');
  }
  const config: Config = {
    host: str(env, 'HOST', '127.0.0.1'),
    port: int(env, 'PORT', 8787, 0, 65535),
    processes: int(env, 'SERVER_PROCESSES', 1, 1, 64),
    dataDir,
    database,
    logLevel: str(env, 'LOG_LEVEL', 'info'),
    secrets: {
      serviceRoleKey: optional(env, 'SERVICE_ROLE_KEY'),
      jwtSecret: optional(env, 'JWT_SECRET'),
      anonKey: optional(env, 'ANON_KEY'),
    },
    auth: {
      accessTokenTtlSeconds: int(env, 'ACCESS_TOKEN_TTL_SECONDS', 3600, 60, 86_400 * 7),
      refreshTokenTtlSeconds: int(env, 'REFRESH_TOKEN_TTL_SECONDS', 86_400 * 60, 3600, 86_400 * 365),
      scryptCost: int(env, 'PASSWORD_SCRYPT_COST', 32_768, 2, 1_048_576),
      jwksUrl: optional(env, 'AUTH_JWKS_URL'),
      issuer: optional(env, 'AUTH_ISSUER'),
      audience: optional(env, 'AUTH_AUDIENCE'),
    },
    limits: {
      authPerMinute: int(env, 'RATE_LIMIT_AUTH_PER_MINUTE', 30, 1, 1_000_000_000),
      exchangePerMinute: int(env, 'RATE_LIMIT_EXCHANGE_PER_MINUTE', 30, 1, 1_000_000_000),
      ingestPerMinute: int(env, 'INGEST_RATE_PER_MINUTE', 60, 1, 1_000_000_000),
      ingestBurst: int(env, 'INGEST_BURST', 20, 1, 1_000_000_000),
      ingestMaxInflight: int(env, 'INGEST_MAX_INFLIGHT', 64, 1, 100_000),
      maxBucketsPerUpload: 500,
      bodyLimitBytes: 1_048_576,
    },
    linkCodeTtlSeconds: int(env, 'LINK_CODE_TTL_SECONDS', 600, 30, 86_400),
    syncMinIntervalMinutes: 30,
    leaderboardRefreshSeconds: int(env, 'LEADERBOARD_REFRESH_SECONDS', 300, 5, 86_400),
    pricingSourceUrl: str(env, 'PRICING_SOURCE_URL', DEFAULT_PRICING_SOURCE_URL),
    jobsEnabled: bool(env, 'JOBS_ENABLED', true),
    trustProxy: bool(env, 'TRUST_PROXY', false),
  };
  const scrypt = config.auth.scryptCost;
  if ((scrypt & (scrypt - 1)) !== 0) throw new ConfigError('PASSWORD_SCRYPT_COST must be a power of two');
  return deepFreeze(config);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
