/**
 * @fileoverview Every setting of the server, read from the environment in one place, validated
 * once and frozen. Nothing else in the code base reads `process.env`.
 */
import { isIP } from 'node:net';
import path from 'node:path';
import { readMailConfig, readSignupConfig, type MailConfig, type SignupConfig } from './config-accounts.js';
import { readLimits, type LimitsConfig } from './config-limits.js';
import { readSsoConfig, type SsoConfig } from './config-sso.js';
import { packageInfo } from './package-info.js';

export type DatabaseConfig =
  | { readonly kind: 'sqlite'; readonly file: string; readonly busyTimeoutMs: number }
  | {
      readonly kind: 'postgres';
      readonly url: string;
      readonly schema?: string | undefined;
      readonly poolSize: number;
    };

export interface Config {
  readonly host: string;
  readonly port: number;
  /**
   * The server's public base URL (PUBLIC_URL; no trailing slash): every absolute URL the server
   * writes into something it serves (discovery files, links) starts with it, never with the
   * request's Host header. Default: the listen address (see `publicUrlOf`).
   */
  readonly publicUrl: string;
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
    /**
     * scrypt cost parameter N (a power of two). PASSWORD_SCRYPT_COST cannot go below
     * MIN_SCRYPT_COST; only code that builds a Config itself (the tests) may set less.
     */
    readonly scryptCost: number;
    readonly jwksUrl: string | undefined;
    readonly issuer: string | undefined;
    readonly audience: string | undefined;
    /** Signature algorithms accepted from the external provider (asymmetric only). */
    readonly algorithms: readonly string[];
  };
  /** Single sign-on providers and where a sign-in may return to (config-sso.ts). */
  readonly sso: SsoConfig;
  readonly limits: LimitsConfig;
  readonly linkCodeTtlSeconds: number;
  readonly syncMinIntervalMinutes: number;
  readonly leaderboardRefreshSeconds: number;
  /** After usage changes, refresh a leaderboard snapshot this old (0: only the periodic refresh). */
  readonly leaderboardFreshSeconds: number;
  readonly pricingSourceUrl: string;
  /** Scheduled jobs run only when true; tests switch them off. */
  readonly jobsEnabled: boolean;
  /**
   * Which reverse proxies' X-Forwarded-For is believed when computing the client address: none
   * (false), the nearest N hops, or the proxies at these addresses/CIDR ranges.
   */
  readonly trustProxy: false | number | readonly string[];
  /** How long a client may take to send, on one connection, a request's headers and its whole request. */
  readonly timeouts: {
    readonly headersMs: number;
    readonly requestMs: number;
    /** After SIGTERM, requests still open after this long have their connections closed. */
    readonly shutdownGraceMs: number;
  };
  /** Where the build put the CLI package served at /cli/tokentally.tgz (`tokentally-<version>.tgz`). */
  readonly cliPackageDir: string;
  /** Where the rate limits keep their buckets (docs/deploy.md): local (this process, or a cluster's primary), database (PostgreSQL), redis. */
  readonly rateLimitStore: 'local' | 'database' | 'redis';
  /** The Redis of `rateLimitStore` redis. */
  readonly redisUrl: string | undefined;
  /** A bearer that reads /metrics besides the service role key; unset: only that key. */
  readonly metricsToken: string | undefined;
  /** Outgoing mail (password recovery links): SMTP_URL and SMTP_FROM; undefined sends none. */
  readonly mail: MailConfig | undefined;
  readonly webhookAllowPrivate: boolean; // WEBHOOK_ALLOW_PRIVATE: webhooks to http:// and private addresses (dev, tests)
  /** exportUsage's limits (docs/sharing.md, "Export"). */
  readonly exports: {
    /** Exports of one account streaming at once in this process. */
    readonly maxPerUser: number;
    /** Exports streaming at once in this process, all accounts together. */
    readonly maxConcurrent: number;
    /** An export whose client has read nothing for this long is closed. */
    readonly stallTimeoutMs: number;
  };
  /**
   * Who may sign up, as the initial values: once an admin has saved the sign-up settings, the
   * stored ones rule (docs/running-for-a-group.md).
   */
  readonly signup: SignupConfig;
}

/** The lowest PASSWORD_SCRYPT_COST the environment may set (2^15). */
export const MIN_SCRYPT_COST = 32_768;
/** The default scrypt cost (2^17: 128 MiB and a few hundred milliseconds a hash). */
export const DEFAULT_SCRYPT_COST = 131_072;
/** JWT_SECRET must carry at least this many bytes (HS256's key size). */
export const MIN_JWT_SECRET_BYTES = 32;

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
    database = {
      kind: 'sqlite',
      file,
      busyTimeoutMs: int(env, 'SQLITE_BUSY_TIMEOUT_MS', DEFAULT_SQLITE_BUSY_TIMEOUT_MS, 0, 600_000),
    };
  } else if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    const schema = optional(env, 'DATABASE_SCHEMA');
    if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/i.test(schema))
      throw new ConfigError('DATABASE_SCHEMA must be a plain identifier (letters, digits, _)');
    database = { kind: 'postgres', url: databaseUrl, schema, poolSize: int(env, 'DATABASE_POOL_SIZE', 10, 1, 200) };
  } else {
    throw new ConfigError('DATABASE_URL must be a postgres:// URL (or unset for the embedded SQLite database)');
  }
  const host = str(env, 'HOST', '127.0.0.1');
  const port = int(env, 'PORT', 8787, 0, 65535);
  const config: Config = {
    host,
    port,
    publicUrl: publicUrlOf(optional(env, 'PUBLIC_URL'), host, port),
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
      scryptCost: int(env, 'PASSWORD_SCRYPT_COST', DEFAULT_SCRYPT_COST, MIN_SCRYPT_COST, 1_048_576),
      jwksUrl: optional(env, 'AUTH_JWKS_URL'),
      issuer: optional(env, 'AUTH_ISSUER'),
      audience: optional(env, 'AUTH_AUDIENCE'),
      algorithms: algorithms(str(env, 'AUTH_ALGORITHMS', 'RS256,ES256')),
    },
    sso: readSsoConfig(
      (name) => optional(env, name),
      (message) => new ConfigError(message),
    ),
    limits: readLimits((name, fallback, min, max) => int(env, name, fallback, min, max)),
    linkCodeTtlSeconds: int(env, 'LINK_CODE_TTL_SECONDS', 600, 30, 86_400),
    syncMinIntervalMinutes: 30,
    leaderboardRefreshSeconds: int(env, 'LEADERBOARD_REFRESH_SECONDS', 300, 5, 86_400),
    leaderboardFreshSeconds: int(env, 'LEADERBOARD_FRESH_SECONDS', 60, 0, 86_400),
    pricingSourceUrl: str(env, 'PRICING_SOURCE_URL', DEFAULT_PRICING_SOURCE_URL),
    jobsEnabled: bool(env, 'JOBS_ENABLED', true),
    trustProxy: trustProxy(env.TRUST_PROXY),
    timeouts: {
      headersMs: int(env, 'REQUEST_HEADERS_TIMEOUT_MS', 10_000, 100, 600_000),
      requestMs: int(env, 'REQUEST_TIMEOUT_MS', 30_000, 100, 3_600_000),
      shutdownGraceMs: int(env, 'SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    },
    cliPackageDir: path.resolve(str(env, 'CLI_PACKAGE_DIR', path.join(packageInfo().root, 'dist', 'cli'))),
    rateLimitStore: rateLimitStore(env, database),
    redisUrl: optional(env, 'REDIS_URL'),
    metricsToken: optional(env, 'METRICS_TOKEN'),
    webhookAllowPrivate: bool(env, 'WEBHOOK_ALLOW_PRIVATE', false),
    mail: readMailConfig(
      (name) => optional(env, name),
      (message) => new ConfigError(message),
      publicUrlOf(optional(env, 'PUBLIC_URL'), host, port),
    ),
    exports: {
      maxPerUser: int(env, 'EXPORT_MAX_PER_USER', 2, 1, 1000),
      maxConcurrent: int(env, 'EXPORT_MAX_CONCURRENT', 8, 1, 10_000),
      stallTimeoutMs: int(env, 'EXPORT_STALL_TIMEOUT_MS', 30_000, 100, 3_600_000),
    },
    signup: readSignupConfig(
      (name) => optional(env, name),
      (message) => new ConfigError(message),
    ),
  };
  if (config.rateLimitStore === 'redis' && config.redisUrl === undefined)
    throw new ConfigError('RATE_LIMIT_STORE=redis needs REDIS_URL');
  if (config.rateLimitStore === 'database' && database.kind !== 'postgres')
    throw new ConfigError('RATE_LIMIT_STORE=database needs PostgreSQL (DATABASE_URL)');
  if (config.redisUrl !== undefined && !/^rediss?:\/\//.test(config.redisUrl))
    throw new ConfigError('REDIS_URL must be a redis:// or rediss:// URL');
  if (config.metricsToken !== undefined && config.metricsToken.length < 16)
    throw new ConfigError('METRICS_TOKEN must be at least 16 characters');
  const scrypt = config.auth.scryptCost;
  if ((scrypt & (scrypt - 1)) !== 0) throw new ConfigError('PASSWORD_SCRYPT_COST must be a power of two');
  if (config.timeouts.requestMs < config.timeouts.headersMs) {
    throw new ConfigError('REQUEST_TIMEOUT_MS must be at least REQUEST_HEADERS_TIMEOUT_MS (it covers the headers too)');
  }
  const jwtSecret = config.secrets.jwtSecret;
  if (jwtSecret !== undefined && Buffer.byteLength(jwtSecret, 'utf8') < MIN_JWT_SECRET_BYTES) {
    throw new ConfigError(
      `JWT_SECRET must be at least ${MIN_JWT_SECRET_BYTES} bytes long (or unset, to have one generated)`,
    );
  }
  const { jwksUrl, issuer, audience } = config.auth;
  if (jwksUrl !== undefined && (issuer === undefined || audience === undefined)) {
    // Without both, a token the provider minted for any other application would sign in here.
    throw new ConfigError(
      'AUTH_JWKS_URL needs AUTH_ISSUER and AUTH_AUDIENCE: tokens are accepted only for this issuer and audience',
    );
  }
  return deepFreeze(config);
}

const ASYMMETRIC_ALGORITHMS = new Set([
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
]);

/** AUTH_ALGORITHMS: a comma-separated list of asymmetric JWS algorithms (a shared secret would let anyone who has it sign). */
function algorithms(raw: string): string[] {
  const list = raw
    .split(',')
    .map((a) => a.trim())
    .filter((a) => a !== '');
  const wrong = list.find((a) => !ASYMMETRIC_ALGORITHMS.has(a));
  if (list.length === 0 || wrong !== undefined) {
    throw new ConfigError(
      `AUTH_ALGORITHMS must list asymmetric JWS algorithms (${[...ASYMMETRIC_ALGORITHMS].join(', ')}), got "${wrong ?? raw}"`,
    );
  }
  return list;
}

/** TRUST_PROXY: false, true (one hop), a hop count, or a comma-separated list of proxy addresses/CIDR ranges. */
function trustProxy(raw: string | undefined): Config['trustProxy'] {
  const value = raw?.trim() ?? '';
  if (value === '' || /^(0|false|no|off)$/i.test(value)) return false;
  // One proxy in front is the common case; "true" never means "believe whatever the client wrote".
  if (/^(true|yes|on)$/i.test(value)) return 1;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 10) throw new ConfigError(`TRUST_PROXY hop count must be between 0 and 10, got ${hops}`);
    return hops;
  }
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const named = entry === 'loopback' || entry === 'linklocal' || entry === 'uniquelocal';
    const bitsOk = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32));
    if (!named && (family === 0 || !bitsOk || extra !== undefined)) {
      throw new ConfigError(
        `TRUST_PROXY must be true/false, a hop count or a list of proxy addresses (IP or CIDR), got "${entry}"`,
      );
    }
  }
  return entries;
}

/**
 * PUBLIC_URL: an http(s) URL without credentials, query or fragment (a path is kept, for a server
 * behind a proxy under a prefix), its trailing slashes removed. Unset: the listen address,
 * `http://HOST:PORT`, where a wildcard HOST (0.0.0.0, ::) becomes 127.0.0.1, the address a client
 * on the same machine reaches it by (a public server sets PUBLIC_URL).
 */
export function publicUrlOf(raw: string | undefined, host: string, port: number): string {
  if (raw === undefined) {
    const local = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host;
    return `http://${isIP(local) === 6 ? `[${local}]` : local}:${port}`;
  }
  const wrong = (why: string) => new ConfigError(`PUBLIC_URL ${why}, got "${raw}"`);
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw wrong('must be an absolute http(s) URL such as https://tokentally.example.com');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw wrong('must start with http:// or https://');
  if (url.username !== '' || url.password !== '') throw wrong('must not carry a user name or password');
  if (url.search !== '' || url.hash !== '' || /[?#]/.test(raw)) throw wrong('must not carry a query or fragment');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** RATE_LIMIT_STORE, by default redis with REDIS_URL, else database on PostgreSQL, else local. */
function rateLimitStore(env: Env, database: DatabaseConfig): Config['rateLimitStore'] {
  const fallback =
    optional(env, 'REDIS_URL') !== undefined ? 'redis' : database.kind === 'postgres' ? 'database' : 'local';
  const value = str(env, 'RATE_LIMIT_STORE', fallback);
  if (value !== 'local' && value !== 'database' && value !== 'redis')
    throw new ConfigError(`RATE_LIMIT_STORE must be local, database or redis, got "${value}"`);
  return value;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
